//! The grammars of the schemes: RFC 1738 §3.2–3.11 and their
//! successors (RFC 9110 §4.2, RFC 4266, RFC 5538, RFC 4248, RFC 8089,
//! RFC 6068), RFC 8141 for `urn`, and RFC 3986 §3 for the others.

use super::authority::authority;
use super::chars::{
    self, Iri, ALPHA, DIGIT, FIELD_1738, FPATH_1738, GROUP_CHAR, HPATH_1738,
    NEWSGROUPS, PCHAR, SEARCH_1738, UCHAR, XCHAR,
};
use super::components::{path, query, News, Parts, Url};
use super::host::{self, Rule};
use super::mailto;
use super::Reject;

/// RFC 3986 §3 for schemes without a grammar of their own; RFC 1738 §5
/// `genericurl = scheme ":" schemepart`, `schemepart = *xchar |
/// ip-schemepart`, `urlpath = *xchar` when strict.
pub(super) fn generic(url: &mut Url<'_>, strict: bool) -> Result<(), Reject> {
    if url.authority.is_none() && url.path.is_empty() && url.query.is_none() {
        return Err(Reject::Empty);
    }
    if strict {
        chars::all(url.path, &XCHAR, Iri::No)?;
        if let Some(q) = url.query {
            chars::all(q, &XCHAR, Iri::No)?;
        }
        return Ok(());
    }
    path(url.path)?;
    url.query.map_or(Ok(()), query)
}

/// RFC 8141 §2: `assigned-name = "urn" ":" NID ":" NSS`, `NID =
/// (alphanum) 0*30(ldh) (alphanum)`, `ldh = alphanum / "-"`, `NSS = pchar
/// *(pchar / "/")`: a URN names a namespace and a name in it
/// (`urn:isbn:0451450523`). A namespace named alone in prose (`URN:NBN`,
/// `urn:alert`) or an NSS left empty (`urn:nbn:`) is no URN. The
/// characters are RFC 3986's, checked first (`urn:a b` is a bad
/// character, as for any scheme).
pub(super) fn urn(url: &mut Url<'_>, strict: bool) -> Result<(), Reject> {
    generic(url, strict)?;
    if url.authority.is_some() {
        return Err(Reject::BadPath);
    }
    let Some(colon) = memchr::memchr(b':', url.path) else {
        return Err(Reject::BadPath);
    };
    let (nid, nss) = (&url.path[..colon], &url.path[colon + 1..]);
    let ldh = |c: &u8| c.is_ascii_alphanumeric() || *c == b'-';
    let nid_ok = (2..=32).contains(&nid.len())
        && nid.first().is_some_and(u8::is_ascii_alphanumeric)
        && nid.last().is_some_and(u8::is_ascii_alphanumeric)
        && nid.iter().all(ldh);
    if !nid_ok || nss.is_empty() || nss.starts_with(b"/") {
        return Err(Reject::BadPath);
    }
    Ok(())
}

/// RFC 9110 §4.2.1: `http-URI = "http" "://" authority path-abempty [ "?"
/// query ]` (§4.2.2 the same for `https`); RFC 1738 §3.3 when strict:
/// `httpurl = "http://" hostport [ "/" hpath [ "?" search ]]`.
pub(super) fn http(url: &mut Url<'_>, strict: bool) -> Result<(), Reject> {
    if strict {
        chars::all(url.path, &HPATH_1738, Iri::No)?;
        if let Some(q) = url.query {
            if url.path.is_empty() {
                return Err(Reject::BadPath);
            }
            chars::all(q, &SEARCH_1738, Iri::No)?;
        }
        return Ok(());
    }
    path(url.path)?;
    url.query.map_or(Ok(()), query)
}

/// RFC 1738 §3.2: `ftpurl = "ftp://" login [ "/" fpath [ ";type=" ftptype
/// ]]`, `ftptype = "A" | "I" | "D" | "a" | "i" | "d"`; `fsegment = *[ uchar
/// | "?" | ":" | "@" | "&" | "=" ]` when strict, RFC 3986 `segment`
/// otherwise.
pub(super) fn ftp(url: &mut Url<'_>, strict: bool) -> Result<(), Reject> {
    let (fpath, typecode) = ftptype(url.path)?;
    if strict {
        chars::all(fpath, &FPATH_1738, Iri::No)?;
        if let Some(q) = url.query {
            chars::all(q, &FPATH_1738, Iri::No)?;
        }
    } else {
        path(fpath)?;
        url.query.map_or(Ok(()), query)?;
    }
    url.parts = Parts::Ftp { path: fpath, typecode };
    Ok(())
}

/// RFC 1738 §3.2.2: the `;type=` suffix of an ftp path and its
/// `ftptype`.
pub(super) fn ftptype(path: &[u8]) -> Result<(&[u8], Option<u8>), Reject> {
    const KEY: &[u8] = b";type=";
    let at = memchr::memmem::rfind(path, KEY);
    let Some(at) = at else { return Ok((path, None)) };
    let fpath = path.get(..at).unwrap_or_default();
    match path.get(at + KEY.len()..) {
        Some([c]) if matches!(c.to_ascii_lowercase(), b'a' | b'i' | b'd') => {
            Ok((fpath, Some(c.to_ascii_lowercase())))
        }
        _ => Err(Reject::BadTypecode),
    }
}

/// RFC 4266 §2.1 (RFC 1738 §3.4): `gopherurl = "gopher://" hostport [ / [
/// gtype [ selector [ "%09" search [ "%09" gopher+_string ] ] ] ] ]`, `gtype
/// = xchar`, `selector = search = gopher+_string = *xchar`. The selector
/// may hold `?` (an `xchar`), so it runs to the fragment.
pub(super) fn gopher<'a>(
    url: &mut Url<'a>,
    body: &'a [u8],
    strict: bool,
) -> Result<(), Reject> {
    if strict {
        chars::all(url.path, &XCHAR, Iri::No)?;
        if let Some(q) = url.query {
            chars::all(q, &XCHAR, Iri::No)?;
        }
    } else {
        path(url.path)?;
        url.query.map_or(Ok(()), query)?;
    }
    // The gopher path: everything after the "/" that ends the authority,
    // a "?" included (it is an xchar of the selector).
    let start = 2 + url.authority.map_or(0, <[u8]>::len) + 1;
    let gopher_path = if url.path.is_empty() {
        &[][..]
    } else {
        body.get(start..).unwrap_or_default()
    };
    let (kind, selector) = match gopher_path.first() {
        None => (None, gopher_path),
        Some(b'%') => (
            chars::pct_encoded(gopher_path, 0),
            gopher_path.get(3..).unwrap_or_default(),
        ),
        Some(&c) => (Some(c), gopher_path.get(1..).unwrap_or_default()),
    };
    let (sel, search, plus) = split_tabs(selector);
    url.parts = Parts::Gopher { kind, selector: sel, search, plus };
    Ok(())
}

/// Splits a gopher selector at its first two `%09` (encoded tabs).
pub(super) fn split_tabs(s: &[u8]) -> (&[u8], Option<&[u8]>, Option<&[u8]>) {
    let Some(i) = memchr::memmem::find(s, b"%09") else {
        return (s, None, None);
    };
    let sel = s.get(..i).unwrap_or_default();
    let rest = s.get(i + 3..).unwrap_or_default();
    match memchr::memmem::find(rest, b"%09") {
        Some(j) => (sel, rest.get(..j), rest.get(j + 3..)),
        None => (sel, Some(rest), None),
    }
}

/// RFC 5538 §3: `nntpURL = "nntp:" server "/" group [ "/" article-number
/// ]`, `group = 1*( group-char / pct-encoded )`, `article-number =
/// 1*16DIGIT`; RFC 1738 §3.7 when strict: `nntpurl = "nntp://" hostport
/// "/" group [ "/" digits ]`, `group = alpha *[ alpha | digit | "-" | "." |
/// "+" | "_" ]`.
pub(super) fn nntp(url: &mut Url<'_>, strict: bool) -> Result<(), Reject> {
    if url.query.is_some() {
        return Err(Reject::BadPath);
    }
    let rest = url.path.strip_prefix(b"/").ok_or(Reject::BadNews)?;
    let (group, number) = match memchr::memchr(b'/', rest) {
        Some(i) => (rest.get(..i).unwrap_or_default(), rest.get(i + 1..)),
        None => (rest, None),
    };
    let group_ok = if strict {
        rfc1738_group(group)
    } else {
        !group.is_empty() && chars::all(group, &GROUP_CHAR, Iri::No).is_ok()
    };
    if !group_ok {
        return Err(Reject::BadNews);
    }
    let article = match number {
        None => None,
        Some(n) => {
            let ok = !n.is_empty()
                && (strict || n.len() <= 16)
                && n.iter().all(|&b| DIGIT[usize::from(b)]);
            if !ok {
                return Err(Reject::BadNews);
            }
            Some(n.iter().fold(0u64, |v, &d| {
                v.saturating_mul(10).saturating_add(u64::from(d - b'0'))
            }))
        }
    };
    url.parts = Parts::Nntp { group, article };
    Ok(())
}

/// RFC 1738 §5: `group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]`.
pub(super) fn rfc1738_group(s: &[u8]) -> bool {
    s.first().is_some_and(|&b| ALPHA[usize::from(b)])
        && s.iter().all(|&b| GROUP_CHAR[usize::from(b)])
}

/// RFC 4248 §2 (RFC 1738 §3.8): `telnetURL = "telnet://" login [ "/" ]`.
pub(super) fn telnet(url: &mut Url<'_>) -> Result<(), Reject> {
    if !matches!(url.path, b"" | b"/") || url.query.is_some() {
        return Err(Reject::BadPath);
    }
    url.parts = Parts::Telnet { user: url.user, password: url.password };
    Ok(())
}

/// RFC 1738 §3.9:
///
/// ```text
/// waisdatabase = "wais://" hostport "/" database
/// waisindex    = "wais://" hostport "/" database "?" search
/// waisdoc      = "wais://" hostport "/" database "/" wtype "/" wpath
/// database = wtype = wpath = *uchar
/// ```
///
/// Segments are RFC 3986 `segment`s unless strict.
pub(super) fn wais(url: &mut Url<'_>, strict: bool) -> Result<(), Reject> {
    let rest = url.path.strip_prefix(b"/").ok_or(Reject::BadPath)?;
    let mut segs = rest.split(|&b| b == b'/');
    let database = segs.next().unwrap_or_default();
    let (kind, wpath) = (segs.next(), segs.next());
    if segs.next().is_some() || kind.is_some() != wpath.is_some() {
        return Err(Reject::BadPath);
    }
    if kind.is_some() && url.query.is_some() {
        return Err(Reject::BadPath);
    }
    let class = if strict { &UCHAR } else { &PCHAR };
    let iri = if strict { Iri::No } else { Iri::Ucs };
    for seg in [Some(database), kind, wpath].into_iter().flatten() {
        chars::all(seg, class, iri)?;
    }
    if let Some(q) = url.query {
        if strict {
            chars::all(q, &SEARCH_1738, Iri::No)?;
        } else {
            query(q)?;
        }
    }
    url.parts = Parts::Wais { database, kind, path: wpath, search: url.query };
    Ok(())
}

/// RFC 8089 §2: `file-URI = file-scheme ":" file-hier-part`,
/// `file-hier-part = ( "//" auth-path ) / local-path`, `auth-path = [
/// file-auth ] path-absolute`, `file-auth = "localhost" / host`; RFC 1738
/// §3.10 when strict: `fileurl = "file://" [ host | "localhost" ] "/"
/// fpath`. No query, port or userinfo.
pub(super) fn file(url: &mut Url<'_>, strict: bool) -> Result<(), Reject> {
    if url.port_text.is_some() {
        return Err(Reject::BadPort);
    }
    if url.query.is_some() || url.path.first() != Some(&b'/') {
        return Err(Reject::BadPath);
    }
    if strict {
        chars::all(url.path, &FPATH_1738, Iri::No)?;
    } else {
        path(url.path)?;
    }
    let local = match url.host_text {
        None | Some(b"") => true,
        Some(h) => h.eq_ignore_ascii_case(b"localhost"),
    };
    url.parts = Parts::File { local, path: url.path };
    Ok(())
}

/// RFC 1738 §3.11:
///
/// ```text
/// prosperourl = "prospero://" hostport "/" ppath *[ fieldspec ]
/// ppath       = psegment *[ "/" psegment ]
/// psegment    = *[ uchar | "?" | ":" | "@" | "&" | "=" ]
/// fieldspec   = ";" fieldname "=" fieldvalue
/// fieldname   = fieldvalue = *[ uchar | "?" | ":" | "@" | "&" ]
/// ```
///
/// RFC 3986 `segment`s and `pchar` names and values unless strict.
pub(super) fn prospero(url: &mut Url<'_>, strict: bool) -> Result<(), Reject> {
    if url.path.first() != Some(&b'/') {
        return Err(Reject::BadPath);
    }
    let (ppath, fields) = match memchr::memchr(b';', url.path) {
        Some(i) => {
            (url.path.get(..i).unwrap_or_default(), url.path.get(i + 1..))
        }
        None => (url.path, None),
    };
    if strict {
        chars::all(ppath, &FPATH_1738, Iri::No)?;
        if let Some(q) = url.query {
            chars::all(q, &FPATH_1738, Iri::No)?;
        }
    } else {
        path(ppath)?;
        url.query.map_or(Ok(()), query)?;
    }
    if let Some(fields) = fields {
        for spec in fields.split(|&b| b == b';') {
            let eq = memchr::memchr(b'=', spec).ok_or(Reject::BadPath)?;
            let name = spec.get(..eq).unwrap_or_default();
            let value = spec.get(eq + 1..).unwrap_or_default();
            for part in [name, value] {
                if strict {
                    chars::all(part, &FIELD_1738, Iri::No)?;
                } else if part.contains(&b'=') {
                    return Err(Reject::BadPath);
                } else {
                    chars::all(part, &PCHAR, Iri::Ucs)?;
                }
            }
        }
    }
    url.parts =
        Parts::Prospero { path: ppath, fields: fields.unwrap_or_default() };
    Ok(())
}

/// RFC 6068 §2 (RFC 1738 §3.5): the `mailto` URL; its addresses become the
/// path and its header fields the query.
pub(super) fn mailto_url<'a>(
    url: &mut Url<'a>,
    body: &'a [u8],
    strict: bool,
) -> Result<(), Reject> {
    let m = mailto::mailto(body, strict)?;
    url.path = m.to();
    url.query = m.header_text();
    url.parts = Parts::Mailto(m);
    Ok(())
}

/// RFC 5538 §4: `newsURL = "news:" [ server "/" ] ( article / newsgroups
/// )`, `server = "//" authority`, `article = msg-id-core`, `newsgroups =
/// *( group-char / pct-encoded / "*" )`; RFC 1738 §3.6 when strict:
/// `newsurl = "news:" grouppart`, `grouppart = "*" | group | article`.
pub(super) fn news_url<'a>(
    url: &mut Url<'a>,
    body: &'a [u8],
    strict: bool,
) -> Result<(), Reject> {
    let refs = match body.strip_prefix(b"//") {
        Some(after) if !strict => {
            let slash = memchr::memchr(b'/', after).ok_or(Reject::BadNews)?;
            let auth = after.get(..slash).unwrap_or_default();
            authority(url, auth, strict)?;
            url.path = after.get(slash..).unwrap_or_default();
            after.get(slash + 1..).unwrap_or_default()
        }
        _ => body,
    };
    let news = if refs == b"*" || (refs.is_empty() && url.authority.is_some())
    {
        News::All
    } else if refs.is_empty() {
        return Err(Reject::Empty);
    } else if strict {
        rfc1738_grouppart(refs)?
    } else if refs.contains(&b'@') {
        chars::all(refs, &PCHAR, Iri::No).map_err(|_| Reject::BadNews)?;
        if !mailto::msg_id_core(refs) {
            return Err(Reject::BadNews);
        }
        News::Article(refs)
    } else {
        chars::all(refs, &NEWSGROUPS, Iri::No).map_err(|r| match r {
            Reject::BadEscape => r,
            _ => Reject::BadNews,
        })?;
        News::Groups(refs)
    };
    url.parts = Parts::News(news);
    Ok(())
}

/// RFC 1738 §5: `grouppart = "*" | group | article`, `article = 1*[ uchar
/// | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host`.
pub(super) fn rfc1738_grouppart(s: &[u8]) -> Result<News<'_>, Reject> {
    match memchr::memchr(b'@', s) {
        Some(at) => {
            let (id, host_text) = (s.get(..at), s.get(at + 1..));
            let id = id.unwrap_or_default();
            let host_text = host_text.unwrap_or_default();
            let ok = !id.is_empty()
                && chars::all(id, &chars::ARTICLE_1738, Iri::No).is_ok()
                && host::host(host_text, Rule::Dns, true, false).is_ok();
            if ok {
                Ok(News::Article(s))
            } else {
                Err(Reject::BadNews)
            }
        }
        None if rfc1738_group(s) => Ok(News::Groups(s)),
        None => Err(Reject::BadNews),
    }
}
