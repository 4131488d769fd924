use super::*;

/// A header block for a member `name` of `size` bytes, type `kind`, with
/// its checksum.
fn header(name: &[u8], size: u64, kind: u8) -> [u8; BLOCK] {
    let mut b = [0u8; BLOCK];
    b[..name.len()].copy_from_slice(name);
    b[100..108].copy_from_slice(b"0000644\0");
    b[124..136].copy_from_slice(format!("{size:011o}\0").as_bytes());
    b[156] = kind;
    b[257..263].copy_from_slice(b"ustar\0");
    b[263..265].copy_from_slice(b"00");
    seal(&mut b);
    b
}

/// Writes the checksum of `b`.
fn seal(b: &mut [u8; BLOCK]) {
    b[148..156].copy_from_slice(b"        ");
    let sum: u32 = b.iter().map(|&x| u32::from(x)).sum();
    b[148..156].copy_from_slice(format!("{sum:06o}\0 ").as_bytes());
}

#[test]
fn numbers_read_octal_and_base_256() {
    assert_eq!(number(b"00000001750\0"), Some(1000));
    assert_eq!(number(b"   1750 \0\0\0\0"), Some(1000));
    assert_eq!(number(b"\0\0\0\0"), Some(0));
    assert_eq!(number(b"0009\0"), None);
    // GNU base-256: 8 GiB, past the 11 octal digits' reach.
    let mut big = [0u8; 12];
    big[0] = 0x80;
    big[7] = 2;
    assert_eq!(number(&big), Some(2 << 32));
    // More than 64 bits.
    assert_eq!(number(&[0xff; 12]), None);
}

#[test]
fn checksums_hold_unsigned_or_signed() {
    let mut b = header(b"a.txt", 5, b'0');
    assert!(checksum_holds(&b));
    assert!(sniff(&b));
    b[0] = b'b';
    assert!(!checksum_holds(&b));
    assert!(!sniff(&b));
    // A high byte in the name, summed as signed (old tars).
    let mut s = header(b"\xe9t\xe9", 1, b'0');
    s[148..156].copy_from_slice(b"        ");
    let signed: i64 = s.iter().map(|&x| i64::from(x as i8)).sum();
    s[148..156].copy_from_slice(format!("{signed:06o}\0 ").as_bytes());
    assert!(checksum_holds(&s));
    // No `ustar` magic: a header, but not sniffed as an archive's start.
    let mut v7 = header(b"a.txt", 5, b'0');
    v7[257..265].fill(0);
    seal(&mut v7);
    assert_eq!(
        block(&v7),
        Block::Header { kind: b'0', size: 5, extended: false }
    );
    assert!(!sniff(&v7));
    assert_eq!(block(&[0; BLOCK]), Block::End);
}

#[test]
fn a_pax_size_record_is_read() {
    let p = pax(b"16 size=1234567\n");
    assert_eq!(p, Pax { size: Some(1_234_567), path: None });
    let p = pax(b"18 path=some/file\n16 size=1234567\n");
    assert_eq!(
        (p.size, p.path.as_deref()),
        (Some(1_234_567), Some(&b"some/file"[..]))
    );
    assert_eq!(pax(b"18 path=some/file\n").size, None);
    // A record whose length runs past the data: reading stops.
    assert_eq!(pax(b"99 size=1\n"), Pax::default());
    assert_eq!(pax(b"x size=1\n"), Pax::default());
    assert_eq!(padding(0), 0);
    assert_eq!(padding(1), 511);
    assert_eq!(padding(512), 0);
}

/// What a sink was handed, as text: each URL with its position and
/// record index, each fault with its offset.
#[derive(Default)]
struct Log(Vec<String>);

impl Log {
    fn found(&mut self, f: &Found<'_, '_>) {
        let part = f.record.and_then(|r| r.part()).map(|p| {
            let t = p
                .as_any()
                .downcast_ref::<TarMember>()
                .map(|t| (&t.name, t.size));
            format!("{t:?}").replace("(\"", "name: \"")
        });
        self.0.push(format!(
            "{} {} {} {} {} {:?} {}",
            f.at.start,
            f.at.end,
            f.at.line,
            f.at.column,
            String::from_utf8_lossy(f.m.url()),
            f.record.map(|r| (r.index, r.offset)),
            part.unwrap_or_default(),
        ));
    }
}

impl RecordSink for Log {
    type Error = Infallible;
    fn found(&mut self, f: &Found<'_, '_>) -> Result<bool, Infallible> {
        Log::found(self, f);
        Ok(true)
    }
    fn limit(&mut self, offset: u64, what: &'static str) {
        self.0.push(format!("limit {offset} {what}"));
    }
    fn record(&mut self) {
        self.0.push("record".into());
    }
    fn fault(&mut self, offset: u64, what: String) {
        self.0.push(format!("fault {offset} {what}"));
    }
}

/// The same log through the stream path.
struct StreamLog(Log);

impl RecordSink for StreamLog {
    type Error = io::Error;
    fn found(&mut self, f: &Found<'_, '_>) -> io::Result<bool> {
        self.0.found(f);
        Ok(true)
    }
    fn limit(&mut self, offset: u64, what: &'static str) {
        RecordSink::limit(&mut self.0, offset, what);
    }
    fn record(&mut self) {
        RecordSink::record(&mut self.0);
    }
    fn fault(&mut self, offset: u64, what: String) {
        RecordSink::fault(&mut self.0, offset, what);
    }
}

/// A reader that gives at most `n` bytes a read.
struct Trickle<'a>(&'a [u8], usize);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.0.len().min(buf.len()).min(self.1);
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

fn containers() -> Containers {
    let settings = super::super::Settings {
        mode: super::super::MailMode::Auto,
        archives: vec![super::super::Archive::Tar],
        lines: None,
        skip_binary: true,
        ..Default::default()
    };
    let finder = crate::Finder::builder().line_numbers(true).build();
    Containers::new(finder, &settings)
}

/// A member's bytes by kind: a message whose URL needs its
/// quoted-printable decoded, text, binary, an mbox of two.
fn member(kind: u8, n: usize) -> Vec<u8> {
    match kind % 4 {
        0 => format!(
            "From: a@example.org\nContent-Transfer-Encoding: quoted-printable\n\n\
             see http://qp{n}.example/a-=\nb\n"
        )
        .into_bytes(),
        1 => format!("text\nhttp://t{n}.example/ and <http://u{n}.example/>\n").into_bytes(),
        2 => format!("\0bin http://b{n}.example/\0").into_bytes(),
        _ => format!(
            "From x Mon Jan  1 00:00:00 2001\n\nhttp://m{n}.example/\n\n\
             From x Mon Jan  1 00:00:00 2001\n\nhttp://n{n}.example/\n"
        )
        .into_bytes(),
    }
}

fn archive(kinds: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for (n, &k) in kinds.iter().enumerate() {
        let data = member(k, n);
        out.extend_from_slice(&header(
            format!("m{n}").as_bytes(),
            data.len() as u64,
            b'0',
        ));
        out.extend_from_slice(&data);
        out.resize(out.len() + padding(data.len() as u64) as usize, 0);
    }
    out.resize(out.len() + 2 * BLOCK, 0);
    out
}

#[test]
fn members_are_found_with_archive_positions() {
    let c = containers();
    let tar = archive(&[0, 1, 2, 3]);
    let mut log = Log::default();
    search_slice(&c, &tar, 0, &mut log);
    let urls: Vec<&str> =
        log.0.iter().filter_map(|l| l.split(' ').nth(4)).collect();
    assert_eq!(
        urls,
        [
            "http://qp0.example/a-b",
            "http://t1.example/",
            "http://u1.example/",
            "http://m3.example/",
            "http://n3.example/"
        ],
        "{:?}",
        log.0
    );
    // The mbox's messages count on from the first member's.
    let records: Vec<&str> = log
        .0
        .iter()
        .filter_map(|l| l.split_once(" Some"))
        .map(|(_, r)| r)
        .collect();
    // A message's record is its message; text's is its member (index 1,
    // its header at 1024, its name and size).
    let text = "((1, 1024)) Some(name: \"m1\", 49))";
    assert_eq!(
        records,
        ["((0, 512)) ", text, text, "((1, 3584)) ", "((2, 3637)) "],
        "{:?}",
        log.0
    );
}

proptest::proptest! {
    /// Whatever the members, damage and read sizes: no panic, and the
    /// stream path hands the sink what the slice path does.
    #[test]
    fn stream_and_slice_agree(
        kinds in proptest::collection::vec(0u8..4, 0..6),
        flips in proptest::collection::vec((0usize..8192, 0u8..=255), 0..4),
        cut in proptest::option::of(0usize..8192),
        trickle in 1usize..700,
    ) {
        let c = containers();
        let mut tar = archive(&kinds);
        for (at, x) in flips {
            let len = tar.len();
            if len > 0 {
                tar[at % len] ^= x;
            }
        }
        if let Some(cut) = cut {
            tar.truncate(cut.min(tar.len()));
        }
        let mut slice = Log::default();
        search_slice(&c, &tar, 7, &mut slice);
        let mut stream = StreamLog(Log::default());
        search_reader(&c, Trickle(&tar, trickle), 7, &mut stream).unwrap();
        proptest::prop_assert_eq!(slice.0, stream.0 .0);
    }
}

#[test]
fn an_extended_header_sets_the_next_size() {
    // The member's own size field says 0; its pax `size` record says 35.
    let data = b"text http://pax.example/long-file\n\n";
    assert_eq!(data.len(), 35);
    let record = b"11 size=35\n";
    let mut tar = Vec::new();
    tar.extend_from_slice(&header(b"PaxHeader", record.len() as u64, b'x'));
    tar.extend_from_slice(record);
    tar.resize(2 * BLOCK, 0);
    tar.extend_from_slice(&header(b"big.txt", 0, b'0'));
    tar.extend_from_slice(data);
    tar.resize(4 * BLOCK + 2 * BLOCK, 0);
    // A GNU long name (its data is a name, not searched) before it all.
    let name = b"a/very/long/name/http://name.example/\0";
    let mut gnu = header(b"././@LongLink", name.len() as u64, b'L').to_vec();
    gnu.extend_from_slice(name);
    gnu.resize(2 * BLOCK, 0);
    gnu.extend_from_slice(&tar);
    let mut log = Log::default();
    search_slice(&containers(), &gnu, 0, &mut log);
    assert_eq!(log.0.len(), 1, "{:?}", log.0);
    assert!(log.0[0].contains("http://pax.example/long-file"), "{:?}", log.0);
    // The long name is the member's after the pax header (which named no
    // path): its record says it.
    assert!(
        log.0[0].contains("name: \"a/very/long/name/http://name.example/\""),
        "{:?}",
        log.0
    );
}

#[test]
fn names_come_from_pax_gnu_or_the_ustar_prefix() {
    let mut b = header(b"file.txt", 0, b'0');
    assert_eq!(header_name(&b), b"file.txt");
    b[345..351].copy_from_slice(b"prefix");
    assert_eq!(header_name(&b), b"prefix/file.txt");
    // GNU's magic: the prefix area is not a prefix.
    b[257..265].copy_from_slice(b"ustar  \0");
    assert_eq!(header_name(&b), b"file.txt");
}
