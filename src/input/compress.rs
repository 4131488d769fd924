//! Decompression by magic bytes: [`Compression::detect`] looks at the
//! first bytes, never at the name; gzip (every member, RFC 1952 §2.2),
//! bzip2, xz and zstd are decompressed on the fly by [`decoder`], and
//! [`open_stream`] does both for a stream.

use crate::search::buffer::read_retry;
use std::io::{self, BufRead, BufReader, Read};

/// A compression format, recognised by its magic bytes.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compression {
    /// Not compressed (or not recognised).
    None,
    /// gzip (RFC 1952), `1f 8b`; every member is read.
    Gzip,
    /// bzip2, `BZh`; every stream is read.
    Bzip2,
    /// xz, `fd 37 7a 58 5a 00`; every stream is read.
    Xz,
    /// Zstandard (RFC 8878), `28 b5 2f fd`; every frame is read.
    Zstd,
}

impl Compression {
    /// How many leading bytes [`Compression::detect`] looks at.
    pub const MAGIC_LEN: usize = 6;

    /// The format whose magic bytes start `head`.
    ///
    /// ```
    /// use urlgrep::input::Compression;
    /// assert_eq!(Compression::detect(b"\x1f\x8b\x08"), Compression::Gzip);
    /// assert_eq!(Compression::detect(b"From x"), Compression::None);
    /// ```
    pub fn detect(head: &[u8]) -> Compression {
        if head.starts_with(&[0x1f, 0x8b]) {
            Compression::Gzip
        } else if head.starts_with(b"BZh") {
            Compression::Bzip2
        } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
            Compression::Xz
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Compression::Zstd
        } else {
            Compression::None
        }
    }
}

/// A reader that decompresses `rdr` as `format`.
pub fn decoder<'a, R: BufRead + Send + 'a>(
    format: Compression,
    rdr: R,
) -> io::Result<Box<dyn Read + Send + 'a>> {
    Ok(match format {
        Compression::None => Box::new(rdr),
        Compression::Gzip => Box::new(GzMembers::new(rdr)),
        Compression::Bzip2 => {
            Box::new(bzip2::bufread::MultiBzDecoder::new(rdr))
        }
        Compression::Xz => {
            Box::new(xz2::bufread::XzDecoder::new_multi_decoder(rdr))
        }
        Compression::Zstd => {
            Box::new(zstd::stream::read::Decoder::with_buffer(rdr)?)
        }
    })
}

/// The members of a gzip file, one after the other (RFC 1952 §2.2: "a
/// gzip file consists of a series of members"), as gzip(1) reads them:
/// zero bytes after the last member (tape and block padding) end the
/// file, as gzip's "trailing zero bytes ignored" does; other bytes that do
/// not start a member are an error.
struct GzMembers<R: BufRead> {
    /// The member being read; `None` at the end of the file.
    member: Option<flate2::bufread::GzDecoder<R>>,
}

impl<R: BufRead> GzMembers<R> {
    fn new(rdr: R) -> GzMembers<R> {
        GzMembers { member: Some(flate2::bufread::GzDecoder::new(rdr)) }
    }
}

impl<R: BufRead> Read for GzMembers<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while let Some(member) = &mut self.member {
            let n = member.read(buf)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            let Some(mut rdr) = self.member.take().map(|m| m.into_inner())
            else {
                break;
            };
            // After a member: another, zero padding to the end, or
            // nothing.
            loop {
                let rest = rdr.fill_buf()?;
                let Some(&first) = rest.first() else { return Ok(0) };
                if first != 0 {
                    if rest.len() >= 2 && rest[..2] != [0x1f, 0x8b] {
                        return Err(io::Error::new(
                            io::ErrorKind::InvalidData,
                            "bytes after the last gzip member that are \
                             neither a member nor zero padding",
                        ));
                    }
                    self.member = Some(flate2::bufread::GzDecoder::new(rdr));
                    break;
                }
                let zeros = rest.iter().take_while(|&&b| b == 0).count();
                rdr.consume(zeros);
            }
        }
        Ok(0)
    }
}

/// Reads the first bytes of `rdr`, recognises a compression format, and
/// returns it with a reader of the decompressed bytes.
pub fn open_stream<'a, R: Read + Send + 'a>(
    mut rdr: R,
) -> io::Result<(Compression, Box<dyn Read + Send + 'a>)> {
    let mut head = [0u8; Compression::MAGIC_LEN];
    let mut n = 0;
    while n < head.len() {
        match read_retry(|b| rdr.read(b), &mut head[n..])? {
            0 => break,
            k => n += k,
        }
    }
    let head = head.get(..n).unwrap_or_default().to_vec();
    let format = Compression::detect(&head);
    let whole = io::Cursor::new(head).chain(rdr);
    if format == Compression::None {
        return Ok((format, Box::new(whole)));
    }
    let rdr = decoder(format, BufReader::with_capacity(64 * 1024, whole))?;
    Ok((format, rdr))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn unpack(bytes: &[u8]) -> (Compression, Vec<u8>) {
        let (format, mut rdr) = open_stream(bytes).unwrap();
        let mut out = Vec::new();
        rdr.read_to_end(&mut out).unwrap();
        (format, out)
    }

    /// RFC 1952 members, then zero padding (as tape and block devices
    /// leave it): read as gzip(1) reads them.
    #[test]
    fn gzip_members_then_zero_padding() {
        let gz = |text: &[u8]| {
            let mut enc = flate2::write::GzEncoder::new(
                Vec::new(),
                flate2::Compression::default(),
            );
            enc.write_all(text).unwrap();
            enc.finish().unwrap()
        };
        let mut two = gz(b"http://a.example/\n");
        two.extend(gz(b"http://b.example/\n"));
        for pad in [0, 1, 511, 70_000] {
            let mut bytes = two.clone();
            bytes.resize(bytes.len() + pad, 0);
            let want = b"http://a.example/\nhttp://b.example/\n".to_vec();
            assert_eq!(unpack(&bytes), (Compression::Gzip, want), "{pad}");
        }
        let mut garbage = two.clone();
        garbage.extend_from_slice(b"\0\0junk");
        let (_, mut rdr) = open_stream(&garbage[..]).unwrap();
        let mut out = Vec::new();
        let err = rdr.read_to_end(&mut out).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert_eq!(out, b"http://a.example/\nhttp://b.example/\n");
    }

    #[test]
    fn plain_passes_through() {
        assert_eq!(unpack(b"abc"), (Compression::None, b"abc".to_vec()));
        assert_eq!(unpack(b""), (Compression::None, vec![]));
    }

    #[test]
    fn multi_member_gzip() {
        let mut all = Vec::new();
        for part in [&b"one "[..], b"two"] {
            let mut enc = flate2::write::GzEncoder::new(
                Vec::new(),
                flate2::Compression::fast(),
            );
            enc.write_all(part).unwrap();
            all.extend(enc.finish().unwrap());
        }
        assert_eq!(unpack(&all), (Compression::Gzip, b"one two".to_vec()));
    }

    #[test]
    fn other_formats() {
        let text = b"see http://a.b/\n".repeat(10);
        let bz = {
            let mut e = bzip2::write::BzEncoder::new(
                Vec::new(),
                bzip2::Compression::fast(),
            );
            e.write_all(&text).unwrap();
            e.finish().unwrap()
        };
        let xz = {
            let mut e = xz2::write::XzEncoder::new(Vec::new(), 1);
            e.write_all(&text).unwrap();
            e.finish().unwrap()
        };
        let zst = zstd::stream::encode_all(&text[..], 1).unwrap();
        assert_eq!(unpack(&bz), (Compression::Bzip2, text.clone()));
        assert_eq!(unpack(&xz), (Compression::Xz, text.clone()));
        assert_eq!(unpack(&zst), (Compression::Zstd, text.clone()));
    }
}
