//! Internationalized names in running text: the labels of a domain name
//! read over UTF-8 letters (RFC 5890 U-labels, RFC 3987 `ireg-name`),
//! so that `ELPAÍS.com`, `üñîçøðé.com` and `президент.рф` are one name
//! each, and never a tail of one (`S.com`).
//!
//! A label holds one script class: letters of the Latin script (ASCII
//! and its extensions, with combining marks), or letters and digits of
//! any other script; ASCII digits and `-` go with either. Where the class
//! changes inside a run of letters, a label starts or ends: text in
//! Chinese, Japanese or Thai puts no space between words, so in
//! `中国語t.co` the name is `t.co`, as the ASCII walk always read it. The
//! ASCII walk stays the fast path: these functions run only where it
//! stopped at a byte of 0x80 or above.

use super::super::bare::utf8_char;
use super::super::{Hay, Incomplete};

/// The script class of a label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Script {
    /// ASCII letters, and letters and marks of the Latin script.
    Latin,
    /// Letters and digits of any other script.
    Other,
}

/// The class of a character of a label: `Some(None)` for ASCII digits
/// and `-` (either class), `None` for a character no label holds.
fn class(c: char) -> Option<Option<Script>> {
    if c.is_ascii() {
        return match c {
            'a'..='z' | 'A'..='Z' => Some(Some(Script::Latin)),
            '0'..='9' | '-' => Some(None),
            _ => None,
        };
    }
    if is_latin(c) {
        return Some(Some(Script::Latin));
    }
    c.is_alphanumeric().then_some(Some(Script::Other))
}

/// Whether `c` goes on a label of class `script` (`None`: no letter
/// yet), which it sets when it is the label's first letter.
fn continues(script: &mut Option<Script>, c: char) -> bool {
    match class(c) {
        None => false,
        Some(None) => true,
        Some(Some(k)) => match *script {
            None => {
                *script = Some(k);
                true
            }
            Some(have) => have == k,
        },
    }
}

/// Letters and combining marks of the Latin script beyond ASCII.
fn is_latin(c: char) -> bool {
    matches!(c,
        '\u{00C0}'..='\u{024F}'   // Latin-1 letters, Latin Extended-A/B
        | '\u{0250}'..='\u{02AF}' // IPA
        | '\u{0300}'..='\u{036F}' // combining diacritical marks
        | '\u{1E00}'..='\u{1EFF}' // Latin Extended Additional
        | '\u{2C60}'..='\u{2C7F}'
        | '\u{A720}'..='\u{A7FF}'
        | '\u{AB30}'..='\u{AB6F}')
        && c != '\u{00D7}'
        && c != '\u{00F7}'
}

/// The character that ends right before `at` (UTF-8) and its length.
fn char_before(hay: &[u8], at: usize) -> Option<(char, usize)> {
    let lowest = at.saturating_sub(4);
    let lead = (lowest..at).rev().find(|&k| hay[k] & 0xC0 != 0x80)?;
    let s = std::str::from_utf8(hay.get(lead..at)?).ok()?;
    let mut chars = s.chars();
    let c = chars.next()?;
    chars.next().is_none().then_some((c, at - lead))
}

/// Whether a letter (or combining mark) of the Latin script ends right
/// before `at`: then the ASCII letters from `at` are the rest of a word
/// (`éric@…` is not `ric@…`).
pub(super) fn after_latin_letter(hay: &[u8], at: usize) -> bool {
    if hay.get(at.wrapping_sub(1)).is_none_or(|&b| b < 0x80) {
        return false;
    }
    char_before(hay, at).is_some_and(|(c, _)| is_latin(c))
}

/// Whether a letter or digit of any script beyond ASCII ends right
/// before `at`: `протокол//россия.рф` and `中//example.org` are words
/// glued to `//`, not a network-path reference after a space, bracket or
/// quote.
pub(super) fn after_letter(hay: &[u8], at: usize) -> bool {
    if hay.get(at.wrapping_sub(1)).is_none_or(|&b| b < 0x80) {
        return false;
    }
    char_before(hay, at).is_some_and(|(c, _)| c.is_alphanumeric())
}

/// Whether the character ending right before `at` is a letter or digit
/// of a label beyond ASCII (the byte there is 0x80 or above).
pub(super) fn label_char_before(hay: &[u8], at: usize) -> bool {
    char_before(hay, at)
        .is_some_and(|(c, _)| !c.is_ascii() && class(c).is_some())
}

/// Whether the bytes from `at` (0x80 or above there) may start a label
/// beyond ASCII: a letter or digit of any script, or a character the
/// window cuts (the scanner asks for more input before it decides).
pub(super) fn label_char_at(hay: &[u8], at: usize) -> bool {
    let Some(rest) = hay.get(at..) else { return true };
    let len = match rest.first() {
        Some(0xC2..=0xDF) => 2,
        Some(0xE0..=0xEF) => 3,
        Some(0xF0..=0xF4) => 4,
        _ => return false,
    };
    match rest.get(..len) {
        Some(bytes) => std::str::from_utf8(bytes)
            .ok()
            .and_then(|s| s.chars().next())
            .is_some_and(|c| class(c).is_some()),
        None => true,
    }
}

/// The start of the label that ends at `end`, walked back over label
/// characters of one script class, not before `lowest`; `ascii_from` is
/// where the ASCII walk stopped (the byte before it is 0x80 or above,
/// and `ascii_from..end` is ASCII letters, digits and hyphens).
pub(super) fn label_start(
    hay: &[u8],
    lowest: usize,
    ascii_from: usize,
    end: usize,
) -> usize {
    let mut script = hay
        .get(ascii_from..end)
        .unwrap_or_default()
        .iter()
        .any(u8::is_ascii_alphabetic)
        .then_some(Script::Latin);
    let mut s = ascii_from;
    while s > lowest {
        let (c, len) = if hay[s - 1] < 0x80 {
            (char::from(hay[s - 1]), 1)
        } else {
            match char_before(hay, s) {
                Some(x) => x,
                None => break,
            }
        };
        if s - len < lowest {
            break;
        }
        if !continues(&mut script, c) {
            break;
        }
        s -= len;
    }
    s
}

/// The end of a host's run of labels and dots from `from` (inside a
/// label of class `script`, `None` when it has no letter yet, or at a
/// dot), over UTF-8 letters too, at most `limit`: where the ASCII run
/// stopped at a byte of 0x80 or above. A label ends where its script
/// class would change.
pub(super) fn host_run_end(
    hay: &Hay<'_>,
    from: usize,
    limit: usize,
    mut script: Option<Script>,
) -> Result<usize, Incomplete> {
    let mut i = from;
    while i < limit {
        let Some(b) = hay.get(i)? else { break };
        let (c, len) = if b < 0x80 {
            (char::from(b), 1)
        } else {
            match utf8_char(hay, i)? {
                Some(x) => x,
                None => break,
            }
        };
        if c == '.' {
            script = None;
            i += 1;
            continue;
        }
        if !continues(&mut script, c) {
            break;
        }
        i += len;
    }
    Ok(i.min(limit))
}

/// The script class of the ASCII label text `label` (its letters'),
/// `None` when it holds none.
pub(super) fn ascii_script(label: &[u8]) -> Option<Script> {
    label.iter().any(u8::is_ascii_alphabetic).then_some(Script::Latin)
}
