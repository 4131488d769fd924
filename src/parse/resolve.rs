//! Relative reference resolution, RFC 3986 §5.2 (issue 30, `--resolve`).
//!
//! [`resolve`] turns a URI reference found in a document (an HTML `href`,
//! `src`, …) into its target URI, given the document's base URI:
//!
//! - §5.2.1: the base is split into its five components and must be
//!   absolute — a scheme of RFC 3986 §3.1 syntax
//!   (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`); its fragment is not
//!   used. A base without one gives `None`.
//! - §5.2.2: the reference is transformed by the RFC's pseudocode, with
//!   the *strict* parser: a reference with a scheme is taken as it is
//!   (dot segments of its path removed), even when the scheme is the
//!   base's (`http:g` stays `http:g`, §5.4.2).
//! - §5.2.3: [`merge`] of the base path and a relative-path reference.
//! - §5.2.4: [`remove_dot_segments`].
//! - §5.3: the components recomposed, an undefined component (no
//!   delimiter) kept apart from an empty one (`?` with nothing after it).
//!
//! Both strings are split by the regular expression of RFC 3986
//! Appendix B ([`split`]): the five components as written, whatever their
//! characters. Nothing is percent-decoded, case-folded or otherwise
//! normalised (§6 is a separate step, and §5.2 works on the components as
//! written); a reference that is not a valid URI-reference is split as
//! Appendix B splits it (`1x:y` has the "scheme" `1x` and is taken as it
//! is).
//!
//! White space: leading and trailing ASCII white space (TAB, LF, FF, CR,
//! SPACE) of the reference and of the base is stripped first, as HTML's
//! URL parsing strips it from an attribute value (HTML Standard §2.4.1,
//! "strip leading and trailing ASCII whitespace"; WHATWG URL §4.4 strips
//! C0 controls and spaces). Unlike the WHATWG URL parser, a tab or line
//! break *inside* the reference is kept: RFC 3986 does not remove it.
//!
//! The work is linear in the lengths of the base and the reference.

/// A URI reference split into the five components of RFC 3986 §3 by the
/// regular expression of Appendix B:
///
/// ```text
/// ^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?
///  12            3  4          5       6  7        8 9
/// ```
///
/// Each component is a slice of the split string, without its delimiter;
/// `None` when its delimiter is absent (§5.3: undefined, not empty). The
/// path is never undefined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reference<'a> {
    /// `$2`: the scheme, before the first `:` (when no `/`, `?` or `#`
    /// comes first and it is not empty).
    pub scheme: Option<&'a str>,
    /// `$4`: the authority, after `//`.
    pub authority: Option<&'a str>,
    /// `$5`: the path, possibly empty.
    pub path: &'a str,
    /// `$7`: the query, after `?`.
    pub query: Option<&'a str>,
    /// `$9`: the fragment, after `#`.
    pub fragment: Option<&'a str>,
}

/// Splits `reference` into its components by RFC 3986 Appendix B (see
/// [`Reference`]). Every string splits; nothing is checked.
pub fn split(reference: &str) -> Reference<'_> {
    // $1 $2: `([^:/?#]+):`
    let (scheme, rest) = match reference.find([':', '/', '?', '#']) {
        Some(i) if i > 0 && reference.as_bytes().get(i) == Some(&b':') => {
            (reference.get(..i), reference.get(i + 1..).unwrap_or_default())
        }
        _ => (None, reference),
    };
    // $3 $4: `//([^/?#]*)`
    let (authority, rest) = match rest.strip_prefix("//") {
        Some(after) => {
            let end = after.find(['/', '?', '#']).unwrap_or(after.len());
            (after.get(..end), after.get(end..).unwrap_or_default())
        }
        None => (None, rest),
    };
    // $8 $9: `#(.*)` — the first `#` ends path and query.
    let (rest, fragment) = match rest.split_once('#') {
        Some((before, fragment)) => (before, Some(fragment)),
        None => (rest, None),
    };
    // $5, $6 $7: `([^?#]*)(\?([^#]*))?`
    let (path, query) = match rest.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (rest, None),
    };
    Reference { scheme, authority, path, query, fragment }
}

impl Reference<'_> {
    /// RFC 3986 §5.3: the components recomposed, each with its
    /// delimiter when defined.
    pub fn recompose(&self) -> String {
        let mut out = String::new();
        recompose_into(
            &mut out,
            self.scheme,
            self.authority,
            self.path,
            self.query,
            self.fragment,
        );
        out
    }
}

/// RFC 3986 §5.3, appending to `out`.
fn recompose_into(
    out: &mut String,
    scheme: Option<&str>,
    authority: Option<&str>,
    path: &str,
    query: Option<&str>,
    fragment: Option<&str>,
) {
    let len = [scheme, authority, Some(path), query, fragment]
        .iter()
        .map(|c| c.map_or(0, |s| s.len() + 2))
        .sum();
    out.reserve(len);
    if let Some(scheme) = scheme {
        out.push_str(scheme);
        out.push(':');
    }
    if let Some(authority) = authority {
        out.push_str("//");
        out.push_str(authority);
    }
    out.push_str(path);
    if let Some(query) = query {
        out.push('?');
        out.push_str(query);
    }
    if let Some(fragment) = fragment {
        out.push('#');
        out.push_str(fragment);
    }
}

/// HTML's "ASCII whitespace" (HTML Standard §2.3, Infra): TAB, LF, FF,
/// CR, SPACE.
fn is_ascii_blank(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\x0c' | '\r' | ' ')
}

/// The target URI of `reference` resolved against `base` by RFC 3986
/// §5.2 (strict), recomposed by §5.3; see the [module docs](self).
///
/// `None` when the base is not absolute: it has no scheme, or its scheme
/// is not of §3.1 syntax. Leading and trailing ASCII white space of both
/// strings is stripped first.
///
/// ```
/// use urlgrep::parse::resolve;
/// let base = "http://a/b/c/d;p?q";
/// assert_eq!(resolve(base, "../g").as_deref(), Some("http://a/b/g"));
/// assert_eq!(resolve(base, " g?y#s\n").as_deref(), Some("http://a/b/c/g?y#s"));
/// assert_eq!(resolve("b/c", "g"), None);
/// ```
pub fn resolve(base: &str, reference: &str) -> Option<String> {
    // §5.2.1: the base, pre-parsed; only its scheme is required.
    let b = split(base.trim_matches(is_ascii_blank));
    let scheme = b.scheme.filter(|s| super::is_scheme_syntax(s.as_bytes()))?;
    let r = split(reference.trim_matches(is_ascii_blank));
    let mut out = String::new();
    // §5.2.2, strict: a reference with a scheme is taken as it is.
    if let Some(r_scheme) = r.scheme {
        let path = remove_dot_segments(r.path);
        recompose_into(
            &mut out,
            Some(r_scheme),
            r.authority,
            &path,
            r.query,
            r.fragment,
        );
    } else if r.authority.is_some() {
        let path = remove_dot_segments(r.path);
        recompose_into(
            &mut out,
            Some(scheme),
            r.authority,
            &path,
            r.query,
            r.fragment,
        );
    } else if r.path.is_empty() {
        let query = if r.query.is_some() { r.query } else { b.query };
        recompose_into(
            &mut out,
            Some(scheme),
            b.authority,
            b.path,
            query,
            r.fragment,
        );
    } else {
        let path = if r.path.starts_with('/') {
            remove_dot_segments(r.path)
        } else {
            remove_dot_segments(&merge(b.authority.is_some(), b.path, r.path))
        };
        recompose_into(
            &mut out,
            Some(scheme),
            b.authority,
            &path,
            r.query,
            r.fragment,
        );
    }
    Some(out)
}

/// RFC 3986 §5.2.3: a relative-path reference's `path` merged with the
/// base path: `"/" + path` when the base has an authority and an empty
/// path; otherwise `path` appended to the base path up to and including
/// its last `/` (all of the base path dropped when it has none).
pub fn merge(base_has_authority: bool, base_path: &str, path: &str) -> String {
    if base_has_authority && base_path.is_empty() {
        let mut out = String::with_capacity(path.len() + 1);
        out.push('/');
        out.push_str(path);
        return out;
    }
    let dir = match base_path.rfind('/') {
        Some(i) => base_path.get(..=i).unwrap_or_default(),
        None => "",
    };
    let mut out = String::with_capacity(dir.len() + path.len());
    out.push_str(dir);
    out.push_str(path);
    out
}

/// RFC 3986 §5.2.4: `path` with its `.` and `..` complete segments
/// interpreted and removed, by the RFC's two buffers: the input a
/// shrinking slice of `path`, the output a string. Linear: each step
/// consumes input, and a `..` removes (once) output appended before.
///
/// ```
/// use urlgrep::parse::resolve::remove_dot_segments;
/// assert_eq!(remove_dot_segments("/a/b/c/./../../g"), "/a/g");
/// assert_eq!(remove_dot_segments("mid/content=5/../6"), "mid/6");
/// ```
pub fn remove_dot_segments(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut input = path;
    while !input.is_empty() {
        if let Some(rest) =
            input.strip_prefix("../").or_else(|| input.strip_prefix("./"))
        {
            // A: a leading "../" or "./" is dropped.
            input = rest;
        } else if input.starts_with("/./") {
            // B: "/./" becomes "/".
            input = input.get(2..).unwrap_or_default();
        } else if input == "/." {
            // B: a final "/." becomes "/".
            input = "/";
        } else if input.starts_with("/../") {
            // C: "/../" becomes "/", and the output loses its last
            // segment.
            input = input.get(3..).unwrap_or_default();
            pop_segment(&mut out);
        } else if input == "/.." {
            // C: a final "/.." likewise.
            input = "/";
            pop_segment(&mut out);
        } else if input == "." || input == ".." {
            // D.
            input = "";
        } else {
            // E: the first segment, with its leading "/" if any, moves
            // to the output.
            let from = usize::from(input.starts_with('/'));
            let end = input
                .get(from..)
                .and_then(|s| s.find('/'))
                .map_or(input.len(), |k| k + from);
            out.push_str(input.get(..end).unwrap_or_default());
            input = input.get(end..).unwrap_or_default();
        }
    }
    out
}

/// §5.2.4 C: removes the output's last segment and its preceding `/`
/// (if any).
fn pop_segment(out: &mut String) {
    match out.rfind('/') {
        Some(k) => out.truncate(k),
        None => out.clear(),
    }
}

#[cfg(test)]
mod tests;
