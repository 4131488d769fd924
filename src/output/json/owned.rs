//! Owned records: every borrowed string of a [`Record`] copied, so that a
//! record outlives the batch and the input it was written from (what
//! [`crate::output::Format::Records`] hands out).
//!
//! A record's fields are said once, where the record is declared: the
//! [`records!`](crate::output::json) macro there declares each struct
//! and derives its `into_owned` from the same field list, field by field
//! through [`Own`]. A new field is one line of `json.rs`, not two files.

use super::{Record, SummaryRecord};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// A value of a record that can be made to own what it borrows.
pub trait Own {
    /// The same value, owning every string it holds.
    type Owned;

    /// The value, owned.
    fn own(self) -> Self::Owned;
}

impl Own for Cow<'_, str> {
    type Owned = Cow<'static, str>;

    fn own(self) -> Cow<'static, str> {
        Cow::Owned(self.into_owned())
    }
}

/// Values that hold no borrowed string are their own owned form.
macro_rules! owned_as_is {
    ($($t:ty),*) => {
        $(impl Own for $t {
            type Owned = $t;

            fn own(self) -> $t {
                self
            }
        })*
    };
}

owned_as_is!(u64, bool, SummaryRecord);

impl<T: Own> Own for Option<T> {
    type Owned = Option<T::Owned>;

    fn own(self) -> Option<T::Owned> {
        self.map(Own::own)
    }
}

impl<T: Own> Own for Box<T> {
    type Owned = Box<T::Owned>;

    fn own(self) -> Box<T::Owned> {
        Box::new((*self).own())
    }
}

impl<T: Own> Own for Vec<T> {
    type Owned = Vec<T::Owned>;

    fn own(self) -> Vec<T::Owned> {
        self.into_iter().map(Own::own).collect()
    }
}

impl<K: Own, V: Own> Own for BTreeMap<K, V>
where
    K::Owned: Ord,
{
    type Owned = BTreeMap<K::Owned, V::Owned>;

    fn own(self) -> BTreeMap<K::Owned, V::Owned> {
        self.into_iter().map(|(k, v)| (k.own(), v.own())).collect()
    }
}

impl Record<'_> {
    /// The record, owning every string it holds.
    pub fn into_owned(self) -> Record<'static> {
        match self {
            Record::Begin(o) => Record::Begin(o.into_owned()),
            Record::Match(m) => Record::Match(m.into_owned()),
            Record::Reject(r) => Record::Reject(r.into_owned()),
            Record::Error(e) => Record::Error(e.into_owned()),
            Record::End(e) => Record::End(e.into_owned()),
            Record::Summary(s) => Record::Summary(s),
        }
    }
}
