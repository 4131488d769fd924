//! The components of a validated URL: [`Url`] and its scheme-specific
//! [`Parts`], with the RFC 3986 §3.3–3.4 path and query checks the scheme
//! grammars share. The leaf below the parser (`url.rs`) and the grammars
//! (`authority.rs`, `grammars.rs`) that fill it in.

use super::chars::{self, Iri, PATH_LAX, QUERY_LAX};
use super::host::Host;
use super::mailto::Mailto;
use super::{Reject, Scheme};
use std::fmt;

/// The scheme-specific parts of a URL (RFC 1738 §3.2–3.11 and successors),
/// raw slices of the input.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Parts<'a> {
    /// A scheme with generic syntax only (RFC 3986 §3), `http` and `https`
    /// included (RFC 9110 §4.2 adds no parts).
    Generic,
    /// RFC 1738 §3.2: `ftp://login/fpath;type=X`.
    Ftp {
        /// The `fpath`, without `;type=`.
        path: &'a [u8],
        /// The `ftptype`, lower-cased: `a`, `i` or `d`.
        typecode: Option<u8>,
    },
    /// RFC 4266 §2 (RFC 1738 §3.4):
    /// `gopher://host/<gophertype><selector>%09<search>%09<gopher+_string>`.
    Gopher {
        /// The one-character item type (decoded when escaped).
        kind: Option<u8>,
        /// The selector (still percent-encoded).
        selector: &'a [u8],
        /// The search string after the first `%09`.
        search: Option<&'a [u8]>,
        /// The Gopher+ string after the second `%09`.
        plus: Option<&'a [u8]>,
    },
    /// RFC 6068: addresses and header fields.
    Mailto(Mailto<'a>),
    /// RFC 5538 §4 (RFC 1738 §3.6): newsgroups or an article.
    News(News<'a>),
    /// RFC 5538 §3 (RFC 1738 §3.7): `nntp://host/group/article-number`.
    Nntp {
        /// The group name (still percent-encoded).
        group: &'a [u8],
        /// The article number.
        article: Option<u64>,
    },
    /// RFC 4248 §2 (RFC 1738 §3.8): `telnet://user:password@host/`.
    Telnet {
        /// The user name.
        user: Option<&'a [u8]>,
        /// The password.
        password: Option<&'a [u8]>,
    },
    /// RFC 1738 §3.9: `wais://host/database[/wtype/wpath][?search]`.
    Wais {
        /// The database name.
        database: &'a [u8],
        /// The `wtype` of a document.
        kind: Option<&'a [u8]>,
        /// The `wpath` of a document.
        path: Option<&'a [u8]>,
        /// The search of a `waisindex`.
        search: Option<&'a [u8]>,
    },
    /// RFC 1738 §3.11: `prospero://host/hsoname;field=value`.
    Prospero {
        /// The `hsoname` (`ppath`).
        path: &'a [u8],
        /// The `;field=value` specs, the first `;` excluded; see
        /// [`prospero_fields`].
        fields: &'a [u8],
    },
    /// RFC 8089 §2 (RFC 1738 §3.10): `file://host/path`.
    File {
        /// No host, or `localhost`: a file on this machine.
        local: bool,
        /// The absolute path.
        path: &'a [u8],
    },
}

/// What a `news` URL names (RFC 5538 §4, RFC 1738 §3.6).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum News<'a> {
    /// `*`, or the empty newsgroups of a `news://server/` URL: all groups.
    All,
    /// A newsgroup name, possibly a wildmat pattern with `*`.
    Groups(&'a [u8]),
    /// A message id without angle brackets, `id-left@id-right`.
    Article(&'a [u8]),
}

/// The `(fieldname, fieldvalue)` pairs of a prospero URL's `fields`.
pub fn prospero_fields(fields: &[u8]) -> impl Iterator<Item = (&[u8], &[u8])> {
    fields.split(|&b| b == b';').filter(|_| !fields.is_empty()).map(
        |f| match f.iter().position(|&b| b == b'=') {
            Some(i) => (
                f.get(..i).unwrap_or_default(),
                f.get(i + 1..).unwrap_or_default(),
            ),
            None => (f, &[][..]),
        },
    )
}

/// A validated URL; every component is a slice of the input.
///
/// ```
/// use urlgrep::parse::{Host, Url};
/// let url = Url::parse(b"http://user:pw@Example.COM:8080/a?b#c").unwrap();
/// assert_eq!(url.host(), Some(Host::Domain(b"Example.COM")));
/// assert_eq!(url.port(), Some(8080));
/// assert_eq!(url.path(), b"/a");
/// assert_eq!(url.redacted(), "http://user:***@Example.COM:8080/a?b#c");
/// assert_eq!(url.normalized(), "http://user:pw@example.com:8080/a?b#c");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Url<'a> {
    pub(crate) input: &'a [u8],
    pub(crate) scheme: Scheme,
    pub(crate) scheme_name: &'a [u8],
    pub(crate) authority: Option<&'a [u8]>,
    pub(crate) user: Option<&'a [u8]>,
    pub(crate) password: Option<&'a [u8]>,
    pub(crate) host_text: Option<&'a [u8]>,
    pub(crate) host: Option<Host<'a>>,
    pub(crate) port_text: Option<&'a [u8]>,
    pub(crate) port: Option<u16>,
    pub(crate) path: &'a [u8],
    pub(crate) query: Option<&'a [u8]>,
    pub(crate) fragment: Option<&'a [u8]>,
    pub(crate) parts: Parts<'a>,
}

impl<'a> Url<'a> {
    /// The whole URL, as given.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.input
    }

    /// The whole URL as text. Every accepted URL is UTF-8 (ASCII, or RFC
    /// 3987 code points), so this is the input itself.
    pub fn as_str(&self) -> &'a str {
        std::str::from_utf8(self.input).unwrap_or_default()
    }

    /// The scheme, case-folded.
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// The scheme name as written.
    pub fn scheme_name(&self) -> &'a [u8] {
        self.scheme_name
    }

    /// The authority after `//`, if the URL has one (RFC 3986 §3.2).
    pub fn authority(&self) -> Option<&'a [u8]> {
        self.authority
    }

    /// The user name of the `userinfo` (RFC 3986 §3.2.1, RFC 1738 §3.1).
    pub fn user(&self) -> Option<&'a [u8]> {
        self.user
    }

    /// The password: what follows the first `:` of the `userinfo`.
    pub fn password(&self) -> Option<&'a [u8]> {
        self.password
    }

    /// The host; `None` when there is no authority or its host is empty.
    pub fn host(&self) -> Option<Host<'a>> {
        self.host
    }

    /// The host as written (IPv6 brackets included); empty when the
    /// authority has an empty host.
    pub fn host_bytes(&self) -> Option<&'a [u8]> {
        self.host_text
    }

    /// The port number, if one is written.
    pub fn port(&self) -> Option<u16> {
        self.port
    }

    /// The port as written (possibly empty: `http://a:/`).
    pub fn port_bytes(&self) -> Option<&'a [u8]> {
        self.port_text
    }

    /// The path (RFC 3986 §3.3); for `mailto` the addresses, for `news`
    /// the newsgroups or article.
    pub fn path(&self) -> &'a [u8] {
        self.path
    }

    /// The query after `?` (RFC 3986 §3.4); for `mailto` the header fields.
    pub fn query(&self) -> Option<&'a [u8]> {
        self.query
    }

    /// The fragment after `#` (RFC 3986 §3.5).
    pub fn fragment(&self) -> Option<&'a [u8]> {
        self.fragment
    }

    /// The scheme-specific parts.
    pub fn parts(&self) -> Parts<'a> {
        self.parts
    }

    /// Is a port written that differs from the scheme's default and lies in
    /// the reserved range below 1024? RFC 1738 §6 and RFC 3986 §7.2 warn of
    /// such URLs (a gopher URL talking to an SMTP server).
    pub fn port_is_unusual(&self) -> bool {
        match self.port {
            Some(p) => p < 1024 && Some(p) != self.default_port(),
            None => false,
        }
    }

    /// The default port of the scheme, for RFC 1738's schemes and a few
    /// common registered ones (IANA service names).
    pub fn default_port(&self) -> Option<u16> {
        if let Some(p) = self.scheme.default_port() {
            return Some(p);
        }
        let mut buf = [0u8; 8];
        let name = self.scheme_name;
        let lower = buf.get_mut(..name.len())?;
        for (d, s) in lower.iter_mut().zip(name) {
            *d = s.to_ascii_lowercase();
        }
        Some(match &*lower {
            b"ws" => 80,
            b"wss" => 443,
            b"ssh" | b"sftp" => 22,
            b"ldap" => 389,
            b"ldaps" => 636,
            b"imap" => 143,
            b"imaps" => 993,
            b"pop" | b"pop3" => 110,
            b"ftps" => 990,
            b"snews" => 563,
            b"rtsp" => 554,
            b"sip" => 5060,
            b"sips" => 5061,
            b"irc" => 6667,
            b"ircs" => 6697,
            b"git" => 9418,
            b"rsync" => 873,
            b"dict" => 2628,
            b"finger" => 79,
            b"tftp" => 69,
            b"smb" => 445,
            b"nfs" => 2049,
            b"ipp" => 631,
            b"coap" => 5683,
            b"xmpp" => 5222,
            _ => return None,
        })
    }
}

impl fmt::Display for Url<'_> {
    /// Prints the URL as given (it is UTF-8 by validation).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&String::from_utf8_lossy(self.input))
    }
}

/// The first `b` in `s`: a plain loop, cheaper than `memchr` on the few
/// bytes of an authority.
#[inline]
pub(super) fn find(b: u8, s: &[u8]) -> Option<usize> {
    s.iter().position(|&c| c == b)
}

/// RFC 3986 §3.4: `query = *( pchar / "/" / "?" )` (RFC 3987 `iquery`,
/// private-use code points included), plus `[`, `]`, `|` (see
/// [`chars::PATH_LAX`]).
pub(super) fn query(s: &[u8]) -> Result<(), Reject> {
    chars::all(s, &QUERY_LAX, Iri::Private)
}

/// RFC 3986 §3.3: `path-abempty / path-absolute / path-rootless /
/// path-empty`, all `*( pchar / "/" )` once the authority is split off
/// (RFC 3987 `ipath`), plus `[`, `]`, `|` (see [`chars::PATH_LAX`]).
pub(super) fn path(s: &[u8]) -> Result<(), Reject> {
    chars::all(s, &PATH_LAX, Iri::Ucs)
}
