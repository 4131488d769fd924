//! The scalar kernel: the oracle of the vector ones.

use super::{
    name_stop, plain, Classes, LineMasks, Masks, UrlMasks, BLOCK, LINE_BLOCK,
};

/// The masks of `block`, a byte at a time.
pub(super) fn masks(block: &[u8; BLOCK], classes: &Classes) -> Masks {
    let mut m = Masks::default();
    for (i, &b) in block.iter().enumerate() {
        let bit = 1u32 << i;
        if b == classes.eq[0] {
            m.eq[0] |= bit;
        }
        if b == classes.eq[1] {
            m.eq[1] |= bit;
        }
        if classes.contains(b) {
            m.class |= bit;
        }
    }
    m
}

/// The class mask of up to 32 bytes (the SSE2 kernel's class, which
/// has no byte shuffle, 16 bytes at a time).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) fn class16(bytes: &[u8], classes: &Classes) -> u32 {
    let mut m = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if classes.contains(b) {
            m |= 1u32 << i;
        }
    }
    m
}

/// The bytes of `block` equal to `b`.
pub(super) fn eq(block: &[u8; BLOCK], b: u8) -> u32 {
    let mut m = 0;
    for (i, &c) in block.iter().enumerate() {
        m |= u32::from(c == b) << i;
    }
    m
}

/// The URL byte classes of `block`, a byte at a time.
pub(super) fn url(block: &[u8; BLOCK]) -> UrlMasks {
    let mut m = UrlMasks::default();
    for (i, &b) in block.iter().enumerate() {
        let bit = 1u32 << i;
        if b.is_ascii_alphanumeric() {
            m.alnum |= bit;
        }
        if b == b'.' {
            m.dot |= bit;
        }
        if b == b'-' {
            m.dash |= bit;
        }
        if plain(b) {
            m.plain |= bit;
        }
    }
    m
}

/// The header-line classes of `block`, a byte at a time.
#[inline(never)]
pub(super) fn lines(block: &[u8; LINE_BLOCK]) -> LineMasks {
    let mut m = LineMasks::default();
    for (i, &b) in block.iter().enumerate() {
        m.newline |= u64::from(b == b'\n') << i;
        m.stop |= u64::from(name_stop(b)) << i;
    }
    m
}
