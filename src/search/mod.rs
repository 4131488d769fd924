//! The finder: configuration, matches, and the slice and reader searches;
//! the line counter and the aligned read buffer that every reader uses.

pub(crate) mod buffer;
mod finder;
pub(crate) mod lines;
pub(crate) mod push;
mod stream;

pub use finder::{
    Candidate, CandidateIter, FindIter, Finder, FinderBuilder, Match,
};
pub(crate) use stream::Counts;
pub use stream::{OwnedMatch, Position, ReaderIter, Sink};
