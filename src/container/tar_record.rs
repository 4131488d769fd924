//! The tar container's record part: what a member of a tar archive says
//! of the URLs found in it when it is text (a message's URLs carry their
//! message instead), and the one place its JSON fields are named
//! ([`RecordPart`]).

use super::record::{PartValue, RecordPart};
use std::any::Any;

/// A regular member of a tar archive whose text was searched: one per
/// member, shared by its URLs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TarMember {
    /// Its path in the archive, as stored (the pax `path` record, GNU's
    /// long name, or the ustar prefix and name), bytes that are not
    /// UTF-8 replaced by U+FFFD.
    pub name: String,
    /// Its size in bytes.
    pub size: u64,
}

impl RecordPart for TarMember {
    fn kind(&self) -> &'static str {
        "tar"
    }

    /// `format` (`tar`), `name`, `size`.
    fn fields<'s>(
        &'s self,
        field: &mut dyn FnMut(&'static str, PartValue<'s>),
    ) {
        field("format", PartValue::Str("tar"));
        field("name", PartValue::Str(&self.name));
        field("size", PartValue::U64(self.size));
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
