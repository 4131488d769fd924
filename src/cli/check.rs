//! Refusals before a search starts. One rule (issue 34.11): an argument
//! that would do nothing is refused, exit 2, and the message names the
//! flag that gives it an effect; so is a value that can never match.

use super::args::Args;
use anyhow::bail;

/// The most worker threads `-j` takes: past this, threads only cost
/// memory (`-j 100000` once started 15,800 threads and took 480 MB).
const MAX_THREADS: usize = 1024;

/// The most `--header` names: each one is compared with every header
/// field and written in every `--json` record (1,000 names once took
/// 1.18 GB, when each cost an entry in every message's metadata).
pub(super) const MAX_HEADERS: usize = 32;

/// The most suggestions a misspelt name gets.
const SUGGESTIONS: usize = 3;

/// Refuses what would otherwise be a silent no-op: a scheme urlgrep
/// never finds, a length cap of 0, a thread count of 0 or past
/// [`MAX_THREADS`], a flag without the flag it works with, a header
/// field name no field has.
pub(super) fn check(args: &Args) -> anyhow::Result<()> {
    schemes(args)?;
    if args.ignore_case
        && args.regexp.is_empty()
        && args.exclude_regexp.is_empty()
    {
        bail!("-i/--ignore-case has no effect without -e or --exclude-regexp");
    }
    if args.max_url_len == 0 {
        bail!("--max-url-len 0: no URL would be found; use 1 or more");
    }
    if args.max_wrapper_len == 0 {
        bail!("--max-wrapper-len 0: no wrapper would be found; use 1 or more");
    }
    if let Some(n) = args.threads {
        if n == 0 || n > MAX_THREADS {
            bail!("-j {n}: use 1 to {MAX_THREADS} threads");
        }
    }
    effects(args)?;
    headers(&args.header)
}

/// `--scheme`: a name of RFC 3986's syntax, registered unless the run
/// can find an unregistered one.
fn schemes(args: &Args) -> anyhow::Result<()> {
    // RFC 1738 section 2.1: any scheme may stand in a <URL:...> wrapper;
    // outside one, an unregistered scheme is found with --find
    // unregistered (`gemini://host/`). Elsewhere such a name is nearly
    // always a typo of a registered one.
    let wrapped_only = !args.kind.is_empty()
        && args.kind.iter().all(|k| k.eq_ignore_ascii_case("wrapped"));
    let unregistered = args.find.iter().any(|f| {
        f.eq_ignore_ascii_case("unregistered") || f.eq_ignore_ascii_case("all")
    });
    for s in &args.scheme {
        let name = s.as_bytes();
        if !urlgrep::parse::is_scheme_syntax(name) {
            bail!(
                "--scheme {s:?}: not a scheme name (RFC 3986 section 3.1: \
                 a letter, then letters, digits, '+', '-' or '.')"
            );
        }
        if urlgrep::parse::is_registered(name) || wrapped_only || unregistered
        {
            continue;
        }
        let near = nearest(s, urlgrep::parse::REGISTERED);
        let hint = match near.as_slice() {
            [] => String::new(),
            [one] => format!("; did you mean {one}?"),
            [rest @ .., last] => {
                format!("; did you mean {} or {last}?", rest.join(", "))
            }
        };
        bail!(
            "--scheme {s:?}: not a registered scheme{hint} (an unregistered \
             one needs --find unregistered)"
        );
    }
    Ok(())
}

/// The flags that work only beside another one.
fn effects(args: &Args) -> anyhow::Result<()> {
    let stats = args.stats || args.stats_tsv;
    let json_matches = args.json && !stats;
    for k in &args.kind {
        let k = k.to_ascii_lowercase();
        let scheme_less = ["email", "www", "domain", "network-path"];
        let found = args.find.iter().any(|f| {
            f.eq_ignore_ascii_case(&k) || f.eq_ignore_ascii_case("all")
        });
        if scheme_less.contains(&k.as_str()) && !found {
            bail!("--kind {k}: found only with --find {k} (or --find all)");
        }
        if k == "resolved" && !args.resolve {
            bail!("--kind resolved: found only with --resolve");
        }
    }
    if !args.header.is_empty() && !json_matches {
        bail!(
            "--header fills the `headers` of --json match records: use it \
             with --json, without --stats"
        );
    }
    if args.html_context && !json_matches {
        bail!(
            "--html-context adds to --json match records: use it with \
             --json, without --stats"
        );
    }
    if args.by.is_some() && !stats {
        bail!("--by groups statistics: use it with --stats or --stats-tsv");
    }
    if args.exact_stats && !stats {
        bail!(
            "--exact-stats counts statistics: use it with --stats or \
             --stats-tsv"
        );
    }
    if args.top.is_some() && !args.stats {
        bail!(
            "--top is the length of the lists of --stats: use it with --stats"
        );
    }
    Ok(())
}

/// `--header NAME`: RFC 5322 section 3.6.8, `field-name = 1*ftext`,
/// printable US-ASCII but `:`; each name once, at most [`MAX_HEADERS`].
fn headers(names: &[String]) -> anyhow::Result<()> {
    if names.len() > MAX_HEADERS {
        bail!("--header: {} names, at most {MAX_HEADERS}", names.len());
    }
    for (i, name) in names.iter().enumerate() {
        let ftext = |b: &u8| matches!(b, 33..=57 | 59..=126);
        if name.is_empty() || !name.bytes().all(|b| ftext(&b)) {
            bail!(
                "--header {name:?}: not a field name (RFC 5322 section \
                 3.6.8: printable US-ASCII but ':', no space)"
            );
        }
        if names.iter().take(i).any(|n| n.eq_ignore_ascii_case(name)) {
            bail!("--header {name:?}: given twice");
        }
    }
    Ok(())
}

/// The names of `known` at most two edits from `name` (any case), the
/// nearest first, at most [`SUGGESTIONS`].
fn nearest<'k>(name: &str, known: &[&'k str]) -> Vec<&'k str> {
    let name = name.to_ascii_lowercase();
    // Ties go to the names that begin alike (`htps`: https before
    // ftps), then to those of its length (http before hcp).
    let first = name.bytes().next();
    let mut near: Vec<(usize, bool, usize, &str)> = known
        .iter()
        .map(|k| {
            let d = distance(name.as_bytes(), k.as_bytes());
            (d, k.bytes().next() != first, k.len().abs_diff(name.len()), *k)
        })
        .filter(|&(d, ..)| d <= 2)
        .collect();
    near.sort();
    near.into_iter().take(SUGGESTIONS).map(|(.., k)| k).collect()
}

/// Levenshtein distance: insertions, deletions and substitutions.
fn distance(a: &[u8], b: &[u8]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, &x) in a.iter().enumerate() {
        let mut diagonal = i;
        let mut left = i + 1;
        for (j, &y) in b.iter().enumerate() {
            let up = row.get(j + 1).copied().unwrap_or(usize::MAX);
            let here =
                if x == y { diagonal } else { 1 + diagonal.min(up).min(left) };
            diagonal = up;
            if let Some(cell) = row.get_mut(j) {
                *cell = left;
            }
            left = here;
        }
        if let Some(cell) = row.get_mut(b.len()) {
            *cell = left;
        }
    }
    row.get(b.len()).copied().unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance() {
        assert_eq!(distance(b"htps", b"https"), 1);
        assert_eq!(distance(b"", b"abc"), 3);
        assert_eq!(distance(b"kitten", b"sitting"), 3);
        assert_eq!(distance(b"mailto", b"mailto"), 0);
        assert_eq!(distance(b"ftp", b"tfp"), 2);
    }

    #[test]
    fn nearest_names() {
        let known = ["ftp", "ftps", "http", "https", "mailto", "news"];
        assert_eq!(nearest("htps", &known), ["https", "ftps", "http"]);
        assert_eq!(nearest("HTTPX", &known), ["https", "http"]);
        assert_eq!(nearest("gemini", &known), Vec::<&str>::new());
    }
}
