//! The keyword arguments, read as the CLI reads its flags: the same
//! names, the same checks, the same messages (a `ValueError` here where
//! the CLI exits 2).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;
use std::path::PathBuf;
use std::sync::Arc;
use urlgrep::filter::Filter;
use urlgrep::{Finder, Finds, Kind};

/// The most threads, as `-j` allows.
const MAX_THREADS: usize = 1024;

/// The most `header=` names, as `--header` allows.
const MAX_HEADERS: usize = 32;

/// A `ValueError` with the CLI's message.
pub fn value_error(msg: impl Into<String>) -> PyErr {
    PyValueError::new_err(msg.into())
}

/// A string or an iterable of strings (`None`: none), as a flag given
/// once or several times.
pub fn names(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
    let Some(obj) = obj else { return Ok(Vec::new()) };
    if obj.is_none() {
        return Ok(Vec::new());
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(vec![s.to_cow()?.into_owned()]);
    }
    let mut out = Vec::new();
    for item in obj.try_iter()? {
        out.push(item?.extract::<String>()?);
    }
    Ok(out)
}

/// A path (`str` or `os.PathLike`) or an iterable of paths.
pub fn paths(obj: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    if let Ok(p) = obj.extract::<PathBuf>() {
        return Ok(vec![p]);
    }
    let mut out = Vec::new();
    for item in obj.try_iter()? {
        out.push(item?.extract::<PathBuf>()?);
    }
    Ok(out)
}

/// The options of the search itself, shared by `find` and `scan`.
#[derive(Clone, Debug, Default)]
pub struct Search {
    /// `--find`.
    pub find: Vec<String>,
    /// `--scheme`, lower case.
    pub scheme: Vec<String>,
    /// `--kind`.
    pub kind: Vec<Kind>,
    /// `--strict`.
    pub strict: bool,
    /// `--max-url-len`.
    pub max_url_len: Option<usize>,
    /// `--max-wrapper-len`.
    pub max_wrapper_len: Option<usize>,
}

impl Search {
    /// Reads and checks the arguments.
    pub fn new(
        find: Option<&Bound<'_, PyAny>>,
        scheme: Option<&Bound<'_, PyAny>>,
        kind: Option<&Bound<'_, PyAny>>,
        strict: bool,
        max_url_len: Option<usize>,
        max_wrapper_len: Option<usize>,
    ) -> PyResult<Search> {
        let find = names(find)?;
        let kind_names = names(kind)?;
        let mut kinds = Vec::new();
        for k in &kind_names {
            match Kind::from_name(&k.to_ascii_lowercase()) {
                Some(kind) => kinds.push(kind),
                None => {
                    return Err(value_error(format!(
                        "--kind {k:?}: expected one of wrapped, angle, \
                         quoted, bare, email, www, domain, network-path"
                    )))
                }
            }
        }
        let search = Search {
            scheme: names(scheme)?
                .iter()
                .map(|s| s.to_ascii_lowercase())
                .collect(),
            find,
            kind: kinds,
            strict,
            max_url_len,
            max_wrapper_len,
        };
        search.finds()?;
        search.check_schemes(&kind_names)?;
        search.check_kinds(&kind_names)?;
        if max_url_len == Some(0) {
            return Err(value_error(
                "--max-url-len 0: no URL would be found; use 1 or more",
            ));
        }
        if max_wrapper_len == Some(0) {
            return Err(value_error(
                "--max-wrapper-len 0: no wrapper would be found; use 1 or more",
            ));
        }
        Ok(search)
    }

    /// The detectors `find=` names.
    pub fn finds(&self) -> PyResult<Finds> {
        let mut finds = Finds::NONE;
        for f in &self.find {
            match Finds::from_name(&f.to_ascii_lowercase()) {
                Some(more) => finds = finds.union(more),
                None => {
                    return Err(value_error(format!(
                        "--find {f:?}: expected email, www, domain, \
                         network-path, unregistered, defanged or all"
                    )))
                }
            }
        }
        Ok(finds)
    }

    /// `--scheme`: a scheme name, registered unless the search can find
    /// another (RFC 1738 §2.1 in `<URL:…>`, `--find unregistered`).
    fn check_schemes(&self, kinds: &[String]) -> PyResult<()> {
        let wrapped_only = !kinds.is_empty()
            && kinds.iter().all(|k| k.eq_ignore_ascii_case("wrapped"));
        let unregistered = self.find.iter().any(|f| {
            f.eq_ignore_ascii_case("unregistered")
                || f.eq_ignore_ascii_case("all")
        });
        for s in &self.scheme {
            let name = s.as_bytes();
            if !urlgrep::parse::is_scheme_syntax(name) {
                return Err(value_error(format!(
                    "--scheme {s:?}: not a scheme name (RFC 3986 section \
                     3.1: a letter, then letters, digits, '+', '-' or '.')"
                )));
            }
            if !(urlgrep::parse::is_registered(name)
                || wrapped_only
                || unregistered)
            {
                return Err(value_error(format!(
                    "--scheme {s:?}: not a registered scheme (an \
                     unregistered one needs --find unregistered)"
                )));
            }
        }
        Ok(())
    }

    /// A scheme-less kind needs its detector.
    fn check_kinds(&self, kinds: &[String]) -> PyResult<()> {
        for k in kinds {
            let k = k.to_ascii_lowercase();
            let scheme_less = ["email", "www", "domain", "network-path"];
            let found = self.find.iter().any(|f| {
                f.eq_ignore_ascii_case(&k) || f.eq_ignore_ascii_case("all")
            });
            if scheme_less.contains(&k.as_str()) && !found {
                return Err(value_error(format!(
                    "--kind {k}: found only with --find {k} (or --find all)"
                )));
            }
        }
        Ok(())
    }

    /// The finder these options ask for; `lines` counts lines (for the
    /// records' `line`).
    pub fn finder(&self, lines: bool) -> PyResult<Finder> {
        let mut b = Finder::builder();
        if let Some(n) = self.max_url_len {
            b.max_url_len(n);
        }
        if let Some(n) = self.max_wrapper_len {
            b.max_wrapper_len(n);
        }
        Ok(b.strict(self.strict)
            .find(self.finds()?)
            .line_numbers(lines)
            .build())
    }

    /// Whether `--kind` and `--scheme` keep a candidate.
    pub fn selects(&self, kind: Kind, scheme: &str) -> bool {
        (self.kind.is_empty() || self.kind.contains(&kind))
            && (self.scheme.is_empty()
                || self.scheme.iter().any(|s| s == scheme))
    }
}

/// A host list that cannot be opened: the `OSError` of its kind, with
/// the CLI's message (`--host-file: NAME: MESSAGE`).
fn list_error(flag: &str, name: &str, e: std::io::Error) -> PyErr {
    let msg = format!("{flag}: {name}: {e}");
    match e.kind() {
        std::io::ErrorKind::NotFound => {
            pyo3::exceptions::PyFileNotFoundError::new_err(msg)
        }
        std::io::ErrorKind::PermissionDenied => {
            pyo3::exceptions::PyPermissionError::new_err(msg)
        }
        _ => pyo3::exceptions::PyOSError::new_err(msg),
    }
}

/// `-j`: 1 to 1024.
pub fn threads(jobs: Option<usize>) -> PyResult<Option<usize>> {
    match jobs {
        Some(n) if n == 0 || n > MAX_THREADS => {
            Err(value_error(format!("-j {n}: use 1 to {MAX_THREADS} threads")))
        }
        other => Ok(other),
    }
}

/// `--mail auto|on|off`.
pub fn mail_mode(mail: &str) -> PyResult<urlgrep::MailMode> {
    match mail.to_ascii_lowercase().as_str() {
        "auto" => Ok(urlgrep::MailMode::Auto),
        "on" => Ok(urlgrep::MailMode::On),
        "off" => Ok(urlgrep::MailMode::Off),
        _ => Err(value_error(format!(
            "--mail {mail:?}: expected auto, on or off"
        ))),
    }
}

/// `--header NAME`: field names (RFC 5322 §3.6.8), each once, at most 32.
pub fn headers(names: &[String]) -> PyResult<()> {
    if names.len() > MAX_HEADERS {
        return Err(value_error(format!(
            "--header: {} names, at most {MAX_HEADERS}",
            names.len()
        )));
    }
    for (i, name) in names.iter().enumerate() {
        let ftext = |b: u8| matches!(b, 33..=57 | 59..=126);
        if name.is_empty() || !name.bytes().all(ftext) {
            return Err(value_error(format!(
                "--header {name:?}: not a field name (RFC 5322 section \
                 3.6.8: printable US-ASCII but ':', no space)"
            )));
        }
        if names.iter().take(i).any(|n| n.eq_ignore_ascii_case(name)) {
            return Err(value_error(format!(
                "--header {name:?}: given twice"
            )));
        }
    }
    Ok(())
}

/// The URL filter of `host=`, `exclude_host=`, `regexp=`,
/// `exclude_regexp=` and `ignore_case=` (`--host`, `--exclude-host`,
/// `-e`, `--exclude-regexp`, `-i`); `None` when they ask for none.
pub struct FilterArgs {
    /// `--host`.
    pub host: Vec<String>,
    /// `--exclude-host`.
    pub exclude_host: Vec<String>,
    /// `--host-file`.
    pub host_file: Vec<PathBuf>,
    /// `--exclude-host-file`.
    pub exclude_host_file: Vec<PathBuf>,
    /// `-e/--regexp`.
    pub regexp: Vec<String>,
    /// `--exclude-regexp`.
    pub exclude_regexp: Vec<String>,
    /// `-i/--ignore-case`.
    pub ignore_case: bool,
}

impl FilterArgs {
    /// The filter, or the CLI's message as a `ValueError`.
    pub fn build(&self) -> PyResult<Option<Arc<Filter>>> {
        if self.ignore_case
            && self.regexp.is_empty()
            && self.exclude_regexp.is_empty()
        {
            return Err(value_error(
                "-i/--ignore-case has no effect without -e or \
                 --exclude-regexp",
            ));
        }
        let mut b = Filter::builder();
        for d in &self.host {
            b.host(d).map_err(|e| value_error(format!("--host: {e}")))?;
        }
        for d in &self.exclude_host {
            b.exclude_host(d)
                .map_err(|e| value_error(format!("--exclude-host: {e}")))?;
        }
        let lists = self.host_file.iter().map(|f| (f, false));
        let excluded = self.exclude_host_file.iter().map(|f| (f, true));
        for (path, exclude) in lists.chain(excluded) {
            let flag =
                if exclude { "--exclude-host-file" } else { "--host-file" };
            let name = path.display().to_string();
            let file = std::fs::File::open(path)
                .map_err(|e| list_error(flag, &name, e))?;
            let rdr = std::io::BufReader::with_capacity(256 * 1024, file);
            let read = match exclude {
                true => b.exclude_host_list(rdr, &name),
                false => b.host_list(rdr, &name),
            };
            // A list's bad lines come one a line; the CLI prints all but
            // the last on stderr: here they are the message's lines.
            read.map_err(|e| value_error(format!("{flag}: {e}")))?;
        }
        b.ignore_case(self.ignore_case);
        for p in &self.regexp {
            b.regexp(p);
        }
        for p in &self.exclude_regexp {
            b.exclude_regexp(p);
        }
        let filter = b.build().map_err(|e| value_error(e.to_string()))?;
        Ok((!filter.is_empty()).then(|| Arc::new(filter)))
    }
}
