//! The provenances of a batch's URLs, owned: what each container keeps of
//! a record, the parts its URLs share (a message's id and metadata, the
//! lines around them) stored once.

use super::record::{
    Fields, HitLines, MailFields, PartFields, Provenance, RecordPart,
};
use crate::mail::{Encoding, HtmlLink, Location, Metadata, TextLines};
use std::sync::Arc;

/// See the module docs. A batch holds one; its URLs index into it.
#[derive(Default)]
pub(crate) struct Records {
    entries: Vec<Entry>,
    /// The records' ids, end to end.
    ids: Vec<u8>,
    metas: Vec<Arc<Metadata>>,
    htmls: Vec<Arc<HtmlLink>>,
    lines: Vec<Arc<TextLines>>,
    /// The parts of records of containers other than mail.
    parts: Vec<Arc<dyn RecordPart>>,
}

/// A [`Provenance`], its id at `ids[id.0..id.1]`.
struct Entry {
    /// Relative to the unit (a slice adds the records before it).
    index: u64,
    offset: u64,
    id: Option<(usize, usize)>,
    fields: Stored,
}

/// [`Fields`], their shared parts as indices into [`Records`].
enum Stored {
    Mail(StoredMail),
    /// `parts[k]`, and `htmls[h]`.
    Part(u32, Option<u32>),
}

/// [`MailFields`], stored.
struct StoredMail {
    /// `metas[meta]`.
    meta: Option<u32>,
    /// `htmls[html]`.
    html: Option<u32>,
    /// `lines[k]`, the URL's range in them, the absolute offset of their
    /// text's source.
    lines: Option<(u32, (u64, u64), u64)>,
    part: usize,
    location: Location,
    encoding: Encoding,
    decoded: bool,
}

impl Records {
    /// Bytes of an entry: what a URL with a record costs beyond its text.
    pub(crate) const ENTRY: usize = size_of::<Entry>();

    /// Stores `record`, the provenance of the next URL; returns its
    /// index, or `None` past `u32::MAX` entries. The URLs of a record share
    /// its id and metadata: stored once, while its URLs come in a row.
    pub(crate) fn push(&mut self, record: &Provenance<'_>) -> Option<u32> {
        let k = u32::try_from(self.entries.len()).ok()?;
        let same = self.entries.last().filter(|e| e.index == record.index);
        let mail = match &record.fields {
            Fields::Mail(mail) => mail,
            Fields::Part(part) => {
                let same = same.and_then(|e| match e.fields {
                    Stored::Part(w, _) => Some((e.id, w)),
                    Stored::Mail(_) => None,
                });
                let (id, w) = match same {
                    Some(same) => same,
                    None => {
                        let w = u32::try_from(self.parts.len()).ok()?;
                        self.parts.push(Arc::clone(part.part));
                        (self.id(record.id), w)
                    }
                };
                let html = part.html.and_then(|h| {
                    let k = u32::try_from(self.htmls.len()).ok()?;
                    self.htmls.push(Arc::clone(h));
                    Some(k)
                });
                self.entries.push(Entry {
                    index: record.index,
                    offset: record.offset,
                    id,
                    fields: Stored::Part(w, html),
                });
                return Some(k);
            }
        };
        // A URL of the same text of the same message as the one before
        // shares its entry, when neither has HTML context or lines of its
        // own: one entry a message part, not a URL (an entry per URL was
        // a tenth of the cost of a URL on dense input, issue 33).
        if mail.html.is_none() && mail.lines.is_none() {
            let shared = same.is_some_and(|e| match &e.fields {
                Stored::Mail(m) => {
                    m.html.is_none()
                        && m.lines.is_none()
                        && e.offset == record.offset
                        && m.part == mail.part
                        && m.location == mail.location
                        && m.encoding == mail.encoding
                        && m.decoded == mail.decoded
                }
                Stored::Part(..) => false,
            });
            if shared {
                return k.checked_sub(1);
            }
        }
        let same = same.and_then(|e| match &e.fields {
            Stored::Mail(m) => Some((e.id, m.meta)),
            Stored::Part(..) => None,
        });
        let (id, meta) = match same {
            Some(same) => same,
            None => {
                let id = self.id(record.id);
                let meta = mail.meta.and_then(|meta| {
                    let k = u32::try_from(self.metas.len()).ok()?;
                    self.metas.push(Arc::clone(meta));
                    Some(k)
                });
                (id, meta)
            }
        };
        let html = mail.html.and_then(|h| {
            let k = u32::try_from(self.htmls.len()).ok()?;
            self.htmls.push(Arc::clone(h));
            Some(k)
        });
        let lines = mail.lines.and_then(|c| {
            // The URLs on the same lines share them: stored once.
            let same =
                self.lines.last().is_some_and(|l| Arc::ptr_eq(l, c.lines));
            if !same {
                self.lines.push(Arc::clone(c.lines));
            }
            let k = u32::try_from(self.lines.len().checked_sub(1)?).ok()?;
            Some((k, c.url, c.offset))
        });
        self.entries.push(Entry {
            index: record.index,
            offset: record.offset,
            id,
            fields: Stored::Mail(StoredMail {
                meta,
                html,
                lines,
                part: mail.part,
                location: mail.location,
                encoding: mail.encoding,
                decoded: mail.decoded,
            }),
        });
        Some(k)
    }

    /// Stores a record's id.
    fn id(&mut self, id: Option<&[u8]>) -> Option<(usize, usize)> {
        id.map(|id| {
            let from = self.ids.len();
            self.ids.extend_from_slice(id);
            (from, self.ids.len())
        })
    }

    /// The provenance stored as `k`.
    #[inline]
    pub(crate) fn get(&self, k: u32) -> Option<Provenance<'_>> {
        let e = self.entries.get(k as usize)?;
        let id = e.id.and_then(|(a, b)| self.ids.get(a..b));
        let m = match &e.fields {
            Stored::Mail(m) => m,
            Stored::Part(w, html) => {
                let fields = PartFields {
                    part: self.parts.get(*w as usize)?,
                    html: html.and_then(|k| self.htmls.get(k as usize)),
                };
                return Some(Provenance {
                    index: e.index,
                    offset: e.offset,
                    id,
                    fields: Fields::Part(fields),
                });
            }
        };
        let fields = MailFields {
            meta: m.meta.and_then(|k| self.metas.get(k as usize)),
            part: m.part,
            location: m.location,
            encoding: m.encoding,
            decoded: m.decoded,
            html: m.html.and_then(|k| self.htmls.get(k as usize)),
            lines: m.lines.and_then(|(k, url, offset)| {
                let lines = self.lines.get(k as usize)?;
                Some(HitLines { lines, url, offset })
            }),
        };
        Some(Provenance {
            index: e.index,
            offset: e.offset,
            id,
            fields: Fields::Mail(fields),
        })
    }

    /// Counts the record indices on from `records` before them (a
    /// slice's, once the slices before it are known).
    pub(crate) fn shift(&mut self, records: u64) {
        for e in &mut self.entries {
            e.index += records;
        }
    }

    /// Moves the records' offsets by `bytes` (see
    /// [`crate::container::Reading::relative`]).
    pub(crate) fn shift_offsets(&mut self, bytes: u64) {
        for e in &mut self.entries {
            e.offset += bytes;
        }
    }

    /// Empties it, keeping what its vectors allocated.
    pub(crate) fn clear(&mut self) {
        self.entries.clear();
        self.ids.clear();
        self.metas.clear();
        self.htmls.clear();
        self.lines.clear();
        self.parts.clear();
    }

    /// The bytes it holds (its vectors' capacities).
    pub(crate) fn held(&self) -> usize {
        self.entries.capacity() * Records::ENTRY + self.ids.capacity()
    }

    /// Cuts its entries back to `entries`.
    pub(crate) fn shrink_to(&mut self, entries: usize) {
        self.entries.shrink_to(entries);
        self.ids.shrink_to(entries);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mail<'a>(
        index: u64,
        id: Option<&'a [u8]>,
        part: usize,
        location: Location,
    ) -> Provenance<'a> {
        Provenance {
            index,
            offset: index * 100,
            id,
            fields: Fields::Mail(MailFields {
                meta: None,
                part,
                location,
                encoding: Encoding::Identity,
                decoded: false,
                html: None,
                lines: None,
            }),
        }
    }

    /// The URLs of one text of a message share an entry; another part,
    /// location or message gets its own, and each reads back as pushed
    /// (issue 33: an entry per URL of a dense message).
    #[test]
    fn a_text_s_urls_share_an_entry() {
        let id: &[u8] = b"<1@a>";
        let pushed = [
            mail(0, Some(id), 0, Location::Body),
            mail(0, Some(id), 0, Location::Body),
            mail(0, Some(id), 0, Location::Body),
            mail(0, Some(id), 0, Location::Header),
            mail(0, Some(id), 1, Location::Header),
            mail(0, Some(id), 1, Location::Header),
            mail(1, None, 1, Location::Header),
            mail(1, None, 1, Location::Header),
        ];
        let mut r = Records::default();
        let ks: Vec<u32> = pushed.iter().filter_map(|p| r.push(p)).collect();
        assert_eq!(ks, [0, 0, 0, 1, 2, 2, 3, 3]);
        assert_eq!(r.entries.len(), 4);
        for (p, k) in pushed.iter().zip(&ks) {
            assert_eq!(r.get(*k).as_ref(), Some(p));
        }
    }
}
