//! Trigger search: the only code that looks at every byte.
//!
//! Every candidate, whatever its kind, contains the colon that ends its
//! scheme (`http:`, `mailto:`, and `URL:` for wrappers), so the colon is
//! the trigger; everything else runs only at a colon. The SIMD search and
//! the naive byte-at-a-time search must agree exactly: the naive one is the
//! oracle of the tests.

/// How triggers are found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Triggers {
    /// `memchr`: SIMD where the CPU has it.
    #[default]
    Simd,
    /// One byte at a time; the test oracle.
    Naive,
}

impl Triggers {
    /// Index of the first trigger at or after `from`, or `None`.
    #[inline]
    pub(crate) fn find(self, hay: &[u8], from: usize) -> Option<usize> {
        let rest = hay.get(from..)?;
        let found = match self {
            Triggers::Simd => memchr::memchr(b':', rest),
            Triggers::Naive => rest.iter().position(|&b| b == b':'),
        };
        found.map(|i| from + i)
    }
}

#[cfg(test)]
mod tests {
    use super::Triggers;

    #[test]
    fn simd_equals_naive_on_every_offset() {
        let hay = b"a:bc::d\xff:e:";
        for from in 0..=hay.len() + 1 {
            assert_eq!(
                Triggers::Simd.find(hay, from),
                Triggers::Naive.find(hay, from),
                "from {from}"
            );
        }
    }
}
