//! A candidate as a batch stores it ([`Found`]): what
//! [`super::batch::Batch`] keeps of each and [`super::report::BatchUrls`]
//! reads, apart from both.

use crate::parse::{Reject, Scheme};
use crate::scan::{Flags, Kind};
use crate::search::Position;

/// A candidate whose URL is `urls[url.0..url.1]` of its batch.
pub(super) struct Found {
    pub(super) at: Position,
    pub(super) url: (usize, usize),
    pub(super) kind: Kind,
    pub(super) scheme: Scheme,
    /// The host's range in the URL (accepted URLs).
    pub(super) host: Option<(u32, u32)>,
    pub(super) flags: Flags,
    pub(super) reject: Option<Reject>,
    /// Its record half, an index into [`Batch::records`].
    pub(super) record: Option<u32>,
    pub(super) repaired: bool,
    /// A defanged URL's written form: `urls[d.0..d.1]` of its batch.
    pub(super) defanged: Option<(usize, usize)>,
}
