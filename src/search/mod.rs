//! The finder: configuration, matches, and the slice and reader searches.

mod driver;
mod finder;
mod stream;

pub use driver::{Driver, DriverBuilder, Hit, InputDone, Report};
pub use finder::{
    Candidate, CandidateIter, FindIter, Finder, FinderBuilder, Match,
};
pub use stream::{OwnedMatch, Position, ReaderIter, Sink};
