//! RFC 3986 §3.2 and RFC 1738 §5: the authority of a URL, its
//! userinfo, host and port, filled into a [`Url`].

use super::chars::{self, Iri, LOGIN_1738, USERINFO};
use super::components::{find, Url};
use super::host::{self, Host, Rule};
use super::{Reject, Scheme};

/// RFC 3986 §3.2: `authority = [ userinfo "@" ] host [ ":" port ]`; RFC
/// 1738 §5: `login = [ user [ ":" password ] "@" ] hostport`.
///
/// `after` is what follows `//`; the authority ends at its first `/`, `?`
/// or `#` (RFC 3986 §3.2). One pass over it finds that end, the first `@`
/// and the first `:` after it; returns the end.
pub(super) fn authority<'a>(
    url: &mut Url<'a>,
    after: &'a [u8],
    strict: bool,
) -> Result<usize, Reject> {
    // The common case in one pass: a DNS name, then the end of the
    // authority or a port; it gives what the general route below gives.
    if let (n, Some(ace)) = host::hostname_prefix(after, !strict) {
        let host_text = after.get(..n).unwrap_or_default();
        let rest = after.get(n..).unwrap_or_default();
        let digits = match rest.first() {
            Some(b':') => {
                rest.iter().skip(1).take_while(|b| b.is_ascii_digit()).count()
                    + 1
            }
            _ => 0,
        };
        let end = n + digits;
        if matches!(after.get(end), None | Some(b'/' | b'?' | b'#')) {
            if ace && !strict {
                host::idn_to_ascii(host_text)?;
            }
            if digits > 0 {
                let p = rest.get(1..digits).unwrap_or_default();
                url.port = host::port(p, strict)?;
                url.port_text = Some(p);
            }
            url.authority = after.get(..end);
            url.host_text = Some(host_text);
            url.host = Some(Host::Domain(host_text));
            return Ok(end);
        }
    }
    authority_general(url, after, strict)
}

/// [`authority`] for any authority: userinfo, IP literals, reg-names.
pub(super) fn authority_general<'a>(
    url: &mut Url<'a>,
    after: &'a [u8],
    strict: bool,
) -> Result<usize, Reject> {
    /// The bytes the pass stops at.
    const STOP: chars::Class = {
        let mut t = [false; 256];
        t[b'/' as usize] = true;
        t[b'?' as usize] = true;
        t[b'#' as usize] = true;
        t[b'@' as usize] = true;
        t[b':' as usize] = true;
        t
    };
    let (mut at, mut colon) = (None, None);
    let mut end = 0;
    loop {
        let tail = after.get(end..).unwrap_or_default();
        match tail.iter().position(|&b| STOP[usize::from(b)]) {
            None => {
                end = after.len();
                break;
            }
            Some(n) => end += n,
        }
        match after.get(end) {
            Some(b'@') if at.is_none() => (at, colon) = (Some(end), None),
            Some(b':') if colon.is_none() => colon = Some(end),
            Some(b'/' | b'?' | b'#') => break,
            _ => {}
        }
        end += 1;
    }
    let auth = after.get(..end).unwrap_or_default();
    url.authority = Some(auth);
    let (hostport, hp_start) = match at {
        Some(at) => {
            let info = auth.get(..at).unwrap_or_default();
            userinfo(url, info, strict)?;
            (auth.get(at + 1..).unwrap_or_default(), at + 1)
        }
        None => (auth, 0),
    };
    let colon = colon.map(|c| c.saturating_sub(hp_start));
    let (host_text, port_text) = if hostport.first() == Some(&b'[') {
        let close = find(b']', hostport).ok_or(Reject::BadIpv6)?;
        match hostport.get(close + 1..).unwrap_or_default() {
            [] => (hostport, None),
            [b':', port @ ..] => {
                (hostport.get(..=close).unwrap_or(hostport), Some(port))
            }
            _ => return Err(Reject::BadIpv6),
        }
    } else {
        match colon {
            Some(i) => {
                (hostport.get(..i).unwrap_or_default(), hostport.get(i + 1..))
            }
            None => (hostport, None),
        }
    };
    if let Some(p) = port_text {
        url.port = host::port(p, strict)?;
        url.port_text = Some(p);
    }
    url.host_text = Some(host_text);
    if host_text.is_empty() {
        return match url.scheme {
            Scheme::File => Ok(end),
            Scheme::Other if !strict => Ok(end),
            _ => Err(Reject::EmptyHost),
        };
    }
    let (rule, future) = match url.scheme {
        Scheme::Other => (Rule::Generic, true),
        Scheme::File if !strict => (Rule::Generic, true),
        // WHATWG (and so every browser) rejects IPvFuture in http(s) URLs;
        // no HTTP client can reach one.
        Scheme::Http | Scheme::Https => (Rule::Dns, false),
        _ => (Rule::Dns, true),
    };
    url.host = Some(host::host(host_text, rule, strict, future)?);
    Ok(end)
}

/// RFC 3986 §3.2.1: `userinfo = *( unreserved / pct-encoded / sub-delims /
/// ":" )`, user and password split at the first `:`; RFC 1738 §5: `user =
/// password = *[ uchar | ";" | "?" | "&" | "=" ]`.
///
/// RFC 1738's `hostport`-only schemes (http under RFC 1738, gopher, nntp,
/// wais, prospero) and file (RFC 8089 `file-auth`) take no userinfo.
pub(super) fn userinfo<'a>(
    url: &mut Url<'a>,
    info: &'a [u8],
    strict: bool,
) -> Result<(), Reject> {
    let allowed = match url.scheme {
        Scheme::Ftp | Scheme::Telnet | Scheme::Other | Scheme::News => true,
        Scheme::Http | Scheme::Https => !strict,
        _ => false,
    };
    if !allowed {
        return Err(Reject::Userinfo);
    }
    let (user, password) = match find(b':', info) {
        Some(i) => (info.get(..i).unwrap_or_default(), info.get(i + 1..)),
        None => (info, None),
    };
    if strict {
        chars::all(user, &LOGIN_1738, Iri::No)?;
        if let Some(p) = password {
            chars::all(p, &LOGIN_1738, Iri::No)?;
        }
    } else {
        chars::all(info, &USERINFO, Iri::Ucs)?;
    }
    url.user = Some(user);
    url.password = password;
    Ok(())
}
