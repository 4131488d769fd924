//! The `record` object of a match found in a record of a container other
//! than mail (web archives): `index` and `offset`, then the fields its
//! container names ([`crate::RecordPart::fields`]), kept in order as
//! key/value pairs, so that no writer names a container's fields.

use super::owned::Own;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

/// The `record` object of a match record: its fields in the order they
/// are written (`index`, `offset`, then the container's own; for a web
/// archive `gz_offset`, `format`, `type`, `target_uri`, `date`, `id`,
/// `content_type`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartRecord<'a> {
    /// The fields, in order.
    pub fields: Vec<(Cow<'a, str>, PartJson<'a>)>,
}

/// A value of a [`PartRecord`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PartJson<'a> {
    /// `null`.
    Null,
    /// A number.
    U64(u64),
    /// A string.
    Str(Cow<'a, str>),
}

impl<'a> PartRecord<'a> {
    /// The value of field `name`, if the record has it.
    pub fn get(&self, name: &str) -> Option<&PartJson<'a>> {
        self.fields.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }

    /// The number in field `name`, if it holds one.
    pub fn u64(&self, name: &str) -> Option<u64> {
        match self.get(name)? {
            PartJson::U64(n) => Some(*n),
            _ => None,
        }
    }

    /// The string in field `name`, if it holds one.
    pub fn str(&self, name: &str) -> Option<&str> {
        match self.get(name)? {
            PartJson::Str(s) => Some(s),
            _ => None,
        }
    }
}

impl<'a> From<crate::PartValue<'a>> for PartJson<'a> {
    fn from(v: crate::PartValue<'a>) -> PartJson<'a> {
        match v {
            crate::PartValue::Null => PartJson::Null,
            crate::PartValue::U64(n) => PartJson::U64(n),
            crate::PartValue::Str(s) => PartJson::Str(Cow::Borrowed(s)),
        }
    }
}

impl Own for PartRecord<'_> {
    type Owned = PartRecord<'static>;

    fn own(self) -> PartRecord<'static> {
        PartRecord {
            fields: self
                .fields
                .into_iter()
                .map(|(k, v)| {
                    let v = match v {
                        PartJson::Null => PartJson::Null,
                        PartJson::U64(n) => PartJson::U64(n),
                        PartJson::Str(s) => PartJson::Str(s.own()),
                    };
                    (k.own(), v)
                })
                .collect(),
        }
    }
}

impl Serialize for PartJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            PartJson::Null => s.serialize_none(),
            PartJson::U64(n) => s.serialize_u64(*n),
            PartJson::Str(v) => s.serialize_str(v),
        }
    }
}

impl Serialize for PartRecord<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.fields.len()))?;
        for (k, v) in &self.fields {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for PartJson<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        /// A JSON null, number or string.
        struct Value<'a>(PhantomData<&'a ()>);

        impl<'de: 'a, 'a> Visitor<'de> for Value<'a> {
            type Value = PartJson<'a>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("null, a number or a string")
            }

            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(PartJson::Null)
            }

            fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(PartJson::Null)
            }

            fn visit_u64<E: de::Error>(
                self,
                n: u64,
            ) -> Result<Self::Value, E> {
                Ok(PartJson::U64(n))
            }

            fn visit_borrowed_str<E: de::Error>(
                self,
                s: &'de str,
            ) -> Result<Self::Value, E> {
                Ok(PartJson::Str(Cow::Borrowed(s)))
            }

            fn visit_str<E: de::Error>(
                self,
                s: &str,
            ) -> Result<Self::Value, E> {
                Ok(PartJson::Str(Cow::Owned(s.to_owned())))
            }
        }

        d.deserialize_any(Value(PhantomData))
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for PartRecord<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        /// A JSON object of such values, in order.
        struct Fields<'a>(PhantomData<&'a ()>);

        impl<'de: 'a, 'a> Visitor<'de> for Fields<'a> {
            type Value = PartRecord<'a>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of nulls, numbers and strings")
            }

            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Self::Value, A::Error> {
                let mut fields = Vec::new();
                while let Some((k, v)) =
                    map.next_entry::<Key<'a>, PartJson<'a>>()?
                {
                    fields.push((k.0, v));
                }
                Ok(PartRecord { fields })
            }
        }

        d.deserialize_map(Fields(PhantomData))
    }
}

/// A key, borrowed from the input when it can be.
struct Key<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Key<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match PartJson::deserialize(d)? {
            PartJson::Str(s) => Ok(Key(s)),
            _ => Err(de::Error::custom("a key is a string")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Record;

    /// A web-archive match line read back: its `record` in order, each
    /// value of its kind, written again byte for byte.
    #[test]
    fn read_back_in_order() {
        let line = r#"{"type":"match","path":"a.warc","offset":9,"line":1,"column":2,"kind":"bare","url":"http://a.example/","scheme":"http","host":"a.example","flags":[],"record":{"index":0,"offset":0,"gz_offset":null,"format":"warc","type":"response","target_uri":"http://p.example/\u202e","date":"2020-01-01T00:00:00Z","id":"<urn:uuid:1>","content_type":"text/html"}}"#;
        let r: Record<'_> = serde_json::from_str(line).expect("parses");
        let Record::Match(m) = &r else { panic!("a match: {r:?}") };
        let rec = m.record.as_deref().expect("has its record");
        assert_eq!(rec.u64("index"), Some(0));
        assert_eq!(rec.u64("gz_offset"), None);
        assert_eq!(rec.str("type"), Some("response"));
        assert_eq!(rec.str("target_uri"), Some("http://p.example/\u{202e}"));
        let names: Vec<&str> = rec.fields.iter().map(|(k, _)| &**k).collect();
        assert_eq!(names[..4], ["index", "offset", "gz_offset", "format"]);
        let mut out = Vec::new();
        let owned = r.clone().into_owned();
        crate::output::escape::write_json(&mut out, &owned).expect("writes");
        assert_eq!(String::from_utf8_lossy(&out), line);
        // Only nulls, numbers and strings.
        let nested = line.replace(r#""format":"warc""#, r#""format":[1]"#);
        assert!(serde_json::from_str::<Record<'_>>(&nested).is_err());
    }
}
