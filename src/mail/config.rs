//! What a mail search is asked to do: the settings a
//! [`super::MailFinderBuilder`] gathers and the [`MailFinder`] that holds
//! them, read by the walk, the stream and its leaves. Imports none of
//! them, so that they and the finder's searches all import it.

use crate::search::Finder;
use std::sync::Arc;

#[derive(Clone, Debug)]
pub(super) struct Config {
    pub(super) headers: bool,
    pub(super) html: bool,
    /// Messages longer than this are read as a stream.
    pub(super) whole: usize,
    /// The pieces a message held in memory is streamed in.
    pub(super) chunk: usize,
    pub(super) qp_repair: bool,
    pub(super) field_cache: bool,
    pub(super) metadata: bool,
    /// Give matches in `text/html` parts their [`super::HtmlLink`].
    pub(super) html_context: bool,
    /// Give matches in decoded text their lines: lines before, after.
    pub(super) lines: Option<(usize, usize)>,
    /// Lower-case names of the fields [`super::Metadata::headers`] holds.
    pub(super) header_fields: Arc<[String]>,
    /// Report rejected candidates too ([`super::MailMatch::reject`]).
    pub(super) rejects: bool,
}

/// Finds URLs message by message; see the [module docs](crate::mail). Reusable
/// and cheap to clone.
#[derive(Clone, Debug)]
pub struct MailFinder {
    pub(super) finder: Finder,
    pub(super) cfg: Arc<Config>,
}
