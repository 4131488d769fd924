//! The `Date` field (RFC 5322 §3.3), read as mail archives write it, to
//! an instant in UTC.
//!
//! ```text
//! date-time   = [ day-of-week "," ] date time [CFWS]
//! date        = day month year
//! time        = time-of-day zone
//! time-of-day = hour ":" minute [ ":" second ]
//! zone        = (FWS ( "+" / "-" ) 4DIGIT) / obs-zone
//! ```
//!
//! A year is ASCII digits: four or more, 1900 or later (§3.3: "any
//! numeric year 1900 or later"), and before 10000 in UTC as well (RFC
//! 3339's `date-fullyear` is four digits); no sign, no other digits.
//!
//! Real archives hold the obsolete forms of §4.3 too, and worse: two- and
//! three-digit years (`obs-year`: 0–49 are 2000–2049, 50–999 add 1900;
//! a three-digit year zero-padded to four, `0102`, too),
//! named zones (`UT`, `GMT`, `EST`, `EDT`, `CST`, `CDT`, `MST`, `MDT`,
//! `PST`, `PDT`; military letters and other names mean `-0000`, "local
//! time unknown"), the day before the month (`Jan 5`), an asctime order
//! with the time before the year, times with `.` separators, comments
//! (`(PST)`) and commas in odd places. The reading follows Python's
//! `email.utils.parsedate_tz` token by token, so that results agree with
//! the reference the crosscheck uses (`tests/meta_crosscheck.py`), with
//! one deliberate difference: a two-digit year follows RFC 5322 §4.3
//! (below 50 is 20xx), where Python puts 50–68 in the 2000s.
//!
//! No crate was taken: chrono's RFC 2822 reader rejects the asctime order,
//! dotted times and zones after the year that these archives hold, and
//! `mailparse`'s `dateparse` ignores named zones; the grammar is a page.

use std::fmt;

/// An instant, to the second, in UTC.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UtcTime {
    /// Seconds since 1970-01-01T00:00:00Z.
    secs: i64,
}

impl UtcTime {
    /// Seconds since the Unix epoch.
    pub fn timestamp(self) -> i64 {
        self.secs
    }

    /// Year, month (1–12) and day (1–31).
    pub fn ymd(self) -> (i64, u32, u32) {
        civil_from_days(self.secs.div_euclid(86_400))
    }
}

impl UtcTime {
    /// RFC 3339 §5.6, in UTC: `2001-02-03T04:05:06Z` (written digit by
    /// digit: the formatting machinery cost 2,600 instructions a JSON
    /// match).
    pub fn rfc3339(self) -> [u8; 20] {
        let (y, m, d) = self.ymd();
        let s = self.secs.rem_euclid(86_400);
        let mut out = *b"0000-00-00T00:00:00Z";
        let mut put = |at: usize, width: usize, mut n: i64| {
            for k in (at..at + width).rev() {
                out[k] = b'0' + (n % 10) as u8;
                n /= 10;
            }
        };
        // `parse` makes no instant outside the years 1899–9999.
        put(0, 4, y.clamp(0, 9999));
        put(5, 2, i64::from(m));
        put(8, 2, i64::from(d));
        put(11, 2, s / 3600);
        put(14, 2, s / 60 % 60);
        put(17, 2, s % 60);
        out
    }
}

impl fmt::Display for UtcTime {
    /// [`UtcTime::rfc3339`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.rfc3339();
        f.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

/// The instant a `Date` field's value names, or `None` when it does not
/// read as a date (see the module docs for what is read).
pub fn parse(value: &[u8]) -> Option<UtcTime> {
    // Comments hold no date: `(PST)`, `(via …)`.
    let text = strip_comments(value);
    // The words, in a small array: a date has five or six, and a vector
    // (with the comments' copy) was a third of the cost of a date.
    let mut words = Words::default();
    for w in text.split(|b| b.is_ascii_whitespace()).filter(|w| !w.is_empty())
    {
        words.push(w);
    }
    let first = *words.as_slice().first()?;
    if first.ends_with(b",") || DAYS.iter().any(|d| eq(first, d)) {
        words.remove_first();
    } else if let Some(i) = first.iter().rposition(|&b| b == b',') {
        // `Mon,1 Jan …`: the blank after the comma is missing.
        words.w[0] = &first[i + 1..];
    }
    // RFC 850: `Monday, 01-Jan-01 12:00:00 GMT`.
    if words.len() == 3 {
        let mut parts = words.w[0].split(|&b| b == b'-');
        if let (Some(d), Some(m), Some(y), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        {
            let (t, z) = (words.w[1], words.w[2]);
            words = Words::default();
            for w in [d, m, y, t, z] {
                words.push(w);
            }
        }
    }
    // The zone glued to the time: `12:00:00+0100`.
    if words.len() == 4 {
        let s = words.w[3];
        let at = s
            .iter()
            .position(|&b| b == b'+')
            .or_else(|| s.iter().position(|&b| b == b'-').filter(|&i| i > 0));
        match at {
            Some(i) if i > 0 => {
                words.w[3] = &s[..i];
                words.push(&s[i..]);
            }
            _ => words.push(b""),
        }
    }
    let [mut dd, mut mm, mut yy, mut tm, mut tz] = match words.as_slice() {
        [a, b, c, d, e, ..] => [*a, *b, *c, *d, *e],
        _ => return None,
    };
    if dd.is_empty() || mm.is_empty() || yy.is_empty() {
        return None;
    }
    let month = match month(mm) {
        Some(m) => m,
        None => {
            // `Jan 5 …`: the day after the month.
            std::mem::swap(&mut dd, &mut mm);
            month(mm)?
        }
    };
    dd = dd.strip_suffix(b",").unwrap_or(dd);
    // asctime: `Jan 5 12:00:00 2001`.
    if yy.iter().position(|&b| b == b':').is_some_and(|i| i > 0) {
        std::mem::swap(&mut yy, &mut tm);
    }
    if let Some(y) = yy.strip_suffix(b",") {
        if y.is_empty() {
            return None;
        }
        yy = y;
    }
    if !yy.first().is_some_and(u8::is_ascii_digit) {
        std::mem::swap(&mut yy, &mut tz);
    }
    tm = tm.strip_suffix(b",").unwrap_or(tm);
    // `hh:mm[:ss]`, or `hh.mm[.ss]` when there is no colon.
    let sep = if tm.contains(&b':') { b':' } else { b'.' };
    let mut parts = tm.split(|&b| b == sep);
    let (hh, mi, ss) =
        match (parts.next(), parts.next(), parts.next(), parts.next()) {
            (Some(h), Some(m), None, _) => (h, m, &b"0"[..]),
            (Some(h), Some(m), Some(s), None) => (h, m, s),
            _ => return None,
        };
    let mut year = digits(yy)?;
    let day = digits(dd)?;
    let (hour, minute, second) = (digits(hh)?, digits(mi)?, digits(ss)?);
    match yy.len() {
        // RFC 5322 §4.3: "If a two digit year is encountered whose value
        // is between 00 and 49, the year is interpreted by adding 2000
        // […] between 50 and 99, or any three digit year […] by adding
        // 1900."
        2 => year += if year < 50 { 2000 } else { 1900 },
        3 => year += 1900,
        // §3.3: `year = (FWS 4*DIGIT FWS) / obs-year`, and "the year is
        // any numeric year 1900 or later".
        n if n >= 4 && year >= 1900 => {}
        // A three-digit year zero-padded (`0102`): mailers that printed
        // `tm_year` as four digits wrote these (62 messages of the
        // SpamAssassin corpus), read as §4.3's three-digit year.
        n if n >= 4 && (100..1000).contains(&year) => year += 1900,
        // One digit (`obs-year` is `2*DIGIT`), `0000`–`0099`, `1000`–
        // `1899`: no year of §3.3 or §4.3.
        _ => return None,
    }
    let offset = zone(tz)?;
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days_in = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    let valid = year <= 9999
        && (1..=days_in[month as usize - 1]).contains(&day)
        && (0..24).contains(&hour)
        && (0..60).contains(&minute)
        && (0..60).contains(&second);
    if !valid {
        return None;
    }
    let days = days_from_civil(year, month, day as u32);
    let local = days * 86_400 + hour * 3600 + minute * 60 + second;
    let secs = local - offset;
    // The instant must have a four-digit year in UTC too (RFC 3339 §5.6
    // `date-fullyear = 4DIGIT`, as `date_utc` and `--by` write it):
    // `31 Dec 9999 23:59 -0100` is in the year 10000 and is no date.
    (secs < MAX_SECS).then_some(UtcTime { secs })
}

/// The first second of the year 10000 UTC, since the epoch.
const MAX_SECS: i64 = 253_402_300_800;

/// `value` without its comments (RFC 5322 §3.2.2, nested, quoted pairs
/// inside); an unclosed one runs to the end.
fn strip_comments(value: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if !value.contains(&b'(') {
        return std::borrow::Cow::Borrowed(value);
    }
    let mut out = Vec::with_capacity(value.len());
    let mut depth = 0usize;
    let mut bytes = value.iter();
    while let Some(&b) = bytes.next() {
        match b {
            b'(' => depth += 1,
            b')' if depth > 0 => {
                depth -= 1;
                out.push(b' ');
                continue;
            }
            b'\\' if depth > 0 => {
                bytes.next();
            }
            _ if depth == 0 => out.push(b),
            _ => {}
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The first eight words of a date (the rules read five or six; more
/// only keep it from being read as a shorter form).
#[derive(Default)]
struct Words<'a> {
    w: [&'a [u8]; 8],
    n: usize,
}

impl<'a> Words<'a> {
    fn push(&mut self, word: &'a [u8]) {
        if let Some(slot) = self.w.get_mut(self.n) {
            *slot = word;
            self.n += 1;
        }
    }

    fn remove_first(&mut self) {
        self.w.copy_within(1.., 0);
        self.n = self.n.saturating_sub(1);
    }

    fn len(&self) -> usize {
        self.n
    }

    fn as_slice(&self) -> &[&'a [u8]] {
        self.w.get(..self.n).unwrap_or_default()
    }
}

/// A run of 1 to 9 ASCII digits, with an optional sign (as Python's
/// `int` reads it); anything else is no number.
fn number(word: &[u8]) -> Option<i64> {
    let (neg, digits) = match word.split_first()? {
        (b'-', rest) => (true, rest),
        (b'+', rest) => (false, rest),
        _ => (false, word),
    };
    if digits.is_empty()
        || digits.len() > 9
        || !digits.iter().all(u8::is_ascii_digit)
    {
        return None;
    }
    let n = digits.iter().fold(0i64, |n, &d| n * 10 + i64::from(d - b'0'));
    Some(if neg { -n } else { n })
}

/// A run of 1 to 9 ASCII digits (RFC 5234 `DIGIT`, no sign): a day, a
/// year or a part of the time.
fn digits(word: &[u8]) -> Option<i64> {
    if word.first().is_some_and(u8::is_ascii_digit) {
        number(word)
    } else {
        None
    }
}

/// The zone's offset east of UTC, in seconds: `+hhmm`/`-hhmm`
/// (RFC 5322 §3.3) or a name of §4.3; an unknown or missing zone, or
/// `-0000`, is UTC with the local zone unknown. An offset of a day or
/// more names no zone: `None`, no date.
fn zone(tz: &[u8]) -> Option<i64> {
    const NAMES: [(&[u8], i64); 14] = [
        (b"UT", 0),
        (b"UTC", 0),
        (b"GMT", 0),
        (b"Z", 0),
        (b"AST", -400),
        (b"ADT", -300),
        (b"EST", -500),
        (b"EDT", -400),
        (b"CST", -600),
        (b"CDT", -500),
        (b"MST", -700),
        (b"MDT", -600),
        (b"PST", -800),
        (b"PDT", -700),
    ];
    let hhmm = NAMES
        .iter()
        .find(|(name, _)| eq(tz, name))
        .map(|&(_, n)| n)
        .or_else(|| number(tz))
        .unwrap_or(0);
    let sign = hhmm.signum();
    let hhmm = hhmm.abs();
    let secs = sign * (hhmm / 100 * 3600 + hhmm % 100 * 60);
    (secs.abs() < 86_400).then_some(secs)
}

const DAYS: [&[u8]; 7] =
    [b"mon", b"tue", b"wed", b"thu", b"fri", b"sat", b"sun"];

const MONTHS: [&[u8]; 12] = [
    b"jan", b"feb", b"mar", b"apr", b"may", b"jun", b"jul", b"aug", b"sep",
    b"oct", b"nov", b"dec",
];

const LONG_MONTHS: [&[u8]; 12] = [
    b"january",
    b"february",
    b"march",
    b"april",
    b"may",
    b"june",
    b"july",
    b"august",
    b"september",
    b"october",
    b"november",
    b"december",
];

/// The month (1–12) a word names, short or long, in any case.
fn month(word: &[u8]) -> Option<u32> {
    let find = |names: &[&[u8]; 12]| {
        names.iter().position(|n| eq(word, n)).map(|i| i as u32 + 1)
    };
    find(&MONTHS).or_else(|| find(&LONG_MONTHS))
}

/// ASCII case-insensitive equality.
fn eq(a: &[u8], b: &[u8]) -> bool {
    a.eq_ignore_ascii_case(b)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard
/// Hinnant's `days_from_civil`).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy =
        (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day count since 1970-01-01 (`civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(s: &str) -> Option<String> {
        parse(s.as_bytes()).map(|t| t.to_string())
    }

    #[test]
    fn rfc5322_forms() {
        let t = Some("2001-01-05T20:00:00Z".to_string());
        assert_eq!(utc("Fri, 5 Jan 2001 12:00:00 -0800"), t);
        assert_eq!(utc("5 Jan 2001 12:00:00 -0800"), t);
        assert_eq!(utc("Fri, 05 Jan 2001 21:00 +0100"), t);
        assert_eq!(utc("Fri, 5 Jan 2001 12:00:00 -0800 (PST)"), t);
        assert_eq!(utc("Fri,5 Jan 2001 12:00:00 -0800"), t);
        assert_eq!(utc("Fri, 5 Jan 2001 12:00:00-0800"), t);
    }

    #[test]
    fn obsolete_forms() {
        // RFC 5322 §4.3: two-digit years, named zones.
        assert_eq!(
            utc("Fri, 5 Jan 01 12:00:00 PST").as_deref(),
            Some("2001-01-05T20:00:00Z")
        );
        assert_eq!(
            utc("Thu, 5 Jan 95 12:00:00 EST").as_deref(),
            Some("1995-01-05T17:00:00Z")
        );
        assert_eq!(
            utc("5 Jan 49 00:00:00 GMT").as_deref(),
            Some("2049-01-05T00:00:00Z")
        );
        assert_eq!(
            utc("5 Jan 50 00:00:00 GMT").as_deref(),
            Some("1950-01-05T00:00:00Z")
        );
        assert_eq!(
            utc("5 Jan 101 00:00:00 GMT").as_deref(),
            Some("2001-01-05T00:00:00Z")
        );
        // Military and unknown zones are -0000: UTC.
        assert_eq!(
            utc("5 Jan 2001 00:00:00 J").as_deref(),
            Some("2001-01-05T00:00:00Z")
        );
        assert_eq!(
            utc("5 Jan 2001 00:00:00 -0000").as_deref(),
            Some("2001-01-05T00:00:00Z")
        );
        // RFC 850 and asctime.
        assert_eq!(
            utc("Friday, 05-Jan-01 12:00:00 GMT").as_deref(),
            Some("2001-01-05T12:00:00Z")
        );
        assert_eq!(
            utc("Fri Jan  5 12:00:00 2001").as_deref(),
            Some("2001-01-05T12:00:00Z")
        );
        assert_eq!(
            utc("Fri, 5 Jan 2001 12.00.00 +0000").as_deref(),
            Some("2001-01-05T12:00:00Z")
        );
        assert_eq!(
            utc("Friday, January 5, 2001 12:00:00 +0530").as_deref(),
            Some("2001-01-05T06:30:00Z")
        );
    }

    #[test]
    fn day_changes_across_the_zone() {
        assert_eq!(
            utc("Sun, 31 Dec 2000 23:30:00 -0100").as_deref(),
            Some("2001-01-01T00:30:00Z")
        );
        assert_eq!(
            utc("Tue, 1 Mar 2000 00:10:00 +0100").as_deref(),
            Some("2000-02-29T23:10:00Z")
        );
    }

    #[test]
    fn not_dates() {
        for s in [
            "",
            "   ",
            "yesterday",
            "5 Foo 2001 12:00:00 +0000",
            "30 Feb 2001 12:00:00 +0000",
            "29 Feb 1900 12:00:00 +0000",
            "5 Jan 2001 24:00:00 +0000",
            "5 Jan 2001 12:60:00 +0000",
            "5 Jan 2001 12:00:60 +0000",
            "5 Jan 2001 noon +0000",
            "5 Jan 2001",
            "5 Jan 2001 1:2:3:4 +0000",
            "99999999999 Jan 2001 12:00 +0000",
            "5 Jan 2001 -1:00 +0000",
            "5 Jan 2001 12:00 +9999",
            // Issue 33.9: years RFC 5322 gives no date for (§3.3: 1900 or
            // later, §4.3: two or three digits), signs and digits other
            // than ASCII.
            "5 Jan 0000 12:00 +0000",
            "5 Jan 1899 12:00 +0000",
            "5 Jan 0099 12:00 +0000",
            "5 Jan 1 12:00 +0000",
            "5 Jan -2001 12:00 +0000",
            "5 Jan -01 12:00 +0000",
            "5 Jan +2001 12:00 +0000",
            "5 Jan 10000 12:00 +0000",
            "5 Jan \u{0662}\u{0660}\u{0660}\u{0661} 12:00 +0000",
            "Fri, 5 Jan \u{0662}\u{0660}\u{0660}\u{0661} 00:00:00 +0000",
            "\u{0665} Jan 2001 12:00 +0000",
            "+5 Jan 2001 12:00 +0000",
            "5 Jan 2001 +1:00 +0000",
            // In the year 10000 in UTC.
            "31 Dec 9999 23:58:59 -0100",
            "31 Dec 9999 23:59:59 -2359",
        ] {
            assert_eq!(utc(s), None, "{s:?}");
        }
    }

    #[test]
    fn the_years_at_the_ends_of_the_range() {
        for (s, want) in [
            ("1 Jan 1900 00:00:00 +0000", "1900-01-01T00:00:00Z"),
            ("1 Jan 1900 00:00:00 +0100", "1899-12-31T23:00:00Z"),
            ("31 Dec 9999 23:59:59 +0000", "9999-12-31T23:59:59Z"),
            ("31 Dec 9999 23:58:59 +0100", "9999-12-31T22:58:59Z"),
            ("5 Jan 02001 12:00 +0000", "2001-01-05T12:00:00Z"),
            ("5 Jan 099 12:00 +0000", "1999-01-05T12:00:00Z"),
            ("5 Jan 0102 12:00 +0000", "2002-01-05T12:00:00Z"),
            ("5 Jan 00 12:00 +0000", "2000-01-05T12:00:00Z"),
        ] {
            assert_eq!(utc(s).as_deref(), Some(want), "{s:?}");
        }
        let last =
            parse(b"31 Dec 9999 23:59:59 +0000").map(UtcTime::timestamp);
        assert_eq!(last, Some(MAX_SECS - 1));
    }

    #[test]
    fn leap_days_and_the_calendar() {
        assert_eq!(
            utc("29 Feb 2000 00:00:00 +0000").as_deref(),
            Some("2000-02-29T00:00:00Z")
        );
        let epoch = parse(b"1 Jan 1970 00:00:01 +0000");
        assert_eq!(epoch.map(UtcTime::timestamp), Some(1));
        for days in [-800_000i64, -1, 0, 1, 11_016, 2_932_896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
    }

    #[test]
    fn no_panic_on_bytes() {
        for s in [
            &b"\xff\xfe, , , , ,"[..],
            b",",
            b"(((",
            b"1 jan -5 1:1 +",
            b"1 jan 2001 -1:-1:-1",
            b"- - - - -",
        ] {
            let _ = parse(s);
        }
    }
}
