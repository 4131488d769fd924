//! The paths of a search's command line, taken out before clap reads it.
//!
//! clap stores every value twice (the raw `OsString` and a typed value
//! behind an `Arc`) and checks each against the whole command: about
//! 1,800 instructions a path, a third of what a file named on the command
//! line cost more than one found by a folder walk (6,046 named files,
//! issue 32). [`split_paths`] reads the command line as clap would, with
//! the command's own options, and takes out every path but the first:
//! clap still sees that one, so that what conflicts with or requires a
//! path is checked as before. Where it cannot be sure how clap would read
//! an argument (an option it does not know, a value that starts with
//! `-`, an option whose number of values varies), it takes nothing out.

use clap::Command;
use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;

/// How many values an option of the command takes: its long and short
/// names (aliases included) and the count.
struct Options {
    long: Vec<(String, usize)>,
    short: Vec<(char, usize)>,
}

impl Options {
    /// The options of `cmd` (built); `None` when one of them cannot be
    /// read by the simple rules here (a number of values that varies, a
    /// value that must follow `=`) or the command has more than one
    /// positional argument.
    fn of(cmd: &Command) -> Option<Options> {
        let mut opts = Options { long: Vec::new(), short: Vec::new() };
        let mut positionals = 0;
        for arg in cmd.get_arguments() {
            if arg.is_positional() {
                positionals += 1;
                if arg.is_last_set() || arg.is_trailing_var_arg_set() {
                    return None;
                }
                continue;
            }
            let n = match arg.get_action().takes_values() {
                false => 0,
                true => {
                    let range = arg.get_num_args()?;
                    let n = range.min_values();
                    if n != range.max_values() || arg.is_require_equals_set() {
                        // Not known: met on the command line, it stops
                        // the split.
                        continue;
                    }
                    n
                }
            };
            for name in arg
                .get_long()
                .into_iter()
                .chain(arg.get_all_aliases().unwrap_or_default())
            {
                opts.long.push((name.to_owned(), n));
            }
            for c in arg
                .get_short()
                .into_iter()
                .chain(arg.get_all_short_aliases().unwrap_or_default())
            {
                opts.short.push((c, n));
            }
        }
        (positionals == 1).then_some(opts)
    }

    fn long(&self, name: &[u8]) -> Option<usize> {
        self.long.iter().find(|(l, _)| l.as_bytes() == name).map(|&(_, n)| n)
    }

    fn short(&self, c: char) -> Option<usize> {
        self.short.iter().find(|&&(s, _)| s == c).map(|&(_, n)| n)
    }
}

/// Reads `argv` (the program's name first) with the options of `cmd`
/// (built): the command line without the positional arguments after
/// the first, and those arguments in order. clap's paths are the first,
/// then these. When an argument cannot be read surely, `argv` is given
/// back whole and no path taken out.
pub(super) fn split_paths(
    cmd: &Command,
    argv: Vec<OsString>,
) -> (Vec<OsString>, Vec<OsString>) {
    if argv.len() < 3 || cmd.is_allow_negative_numbers_set() {
        return (argv, Vec::new());
    }
    let Some(opts) = Options::of(cmd) else {
        return (argv, Vec::new());
    };
    let Some(positional) = positionals(&opts, &argv) else {
        return (argv, Vec::new());
    };
    let mut kept = Vec::with_capacity(argv.len());
    let mut paths = Vec::new();
    let mut first = true;
    for (a, is_path) in argv.into_iter().zip(positional) {
        if is_path && !first {
            paths.push(a);
        } else {
            first &= !is_path;
            kept.push(a);
        }
    }
    (kept, paths)
}

/// Which arguments of `argv` are positional, as clap reads them; `None`
/// where one cannot be read surely.
fn positionals(opts: &Options, argv: &[OsString]) -> Option<Vec<bool>> {
    let mut out = vec![false; argv.len()];
    // Values still owed to the last option.
    let mut owed = 0usize;
    let mut escaped = false;
    for (i, a) in argv.iter().enumerate().skip(1) {
        let b = a.as_bytes();
        if b.is_empty() && (escaped || owed == 0) {
            // clap refuses an empty path: left to it.
            return None;
        }
        if escaped {
            *out.get_mut(i)? = true;
            continue;
        }
        if owed > 0 {
            // clap may read a value that looks like an option as one:
            // not surely a value, so no split.
            if b.first() == Some(&b'-') {
                return None;
            }
            owed -= 1;
            continue;
        }
        match b {
            b"--" => escaped = true,
            b"-" => *out.get_mut(i)? = true,
            [b'-', b'-', long @ ..] => {
                owed = match long.iter().position(|&c| c == b'=') {
                    // `--name=value`: one value, given here.
                    Some(eq) => match opts.long(long.get(..eq)?)? {
                        1 => 0,
                        _ => return None,
                    },
                    None => opts.long(long)?,
                };
            }
            [b'-', shorts @ ..] => owed = cluster(opts, shorts)?,
            _ => *out.get_mut(i)? = true,
        }
    }
    (owed == 0).then_some(out)
}

/// The values still owed after a cluster of short options (`-nC3`,
/// `-e`): a short that takes a value takes the rest of the cluster when
/// there is one (`-C3`, `-C=3`), else the arguments that follow.
fn cluster(opts: &Options, shorts: &[u8]) -> Option<usize> {
    let s = std::str::from_utf8(shorts).ok()?;
    for (at, c) in s.char_indices() {
        match opts.short(c)? {
            0 => {}
            n => {
                let rest = s.get(at + c.len_utf8()..)?;
                return match (rest.is_empty(), n) {
                    (true, n) => Some(n),
                    (false, 1) => Some(0),
                    (false, _) => None,
                };
            }
        }
    }
    Some(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, Parser};

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    #[derive(Debug, Parser)]
    struct T {
        paths: Vec<String>,
        #[arg(short = 'e', long)]
        regexp: Vec<String>,
        #[arg(short = 'n', long)]
        numbers: bool,
        #[arg(short = 'C', long, alias = "ctx")]
        context: Option<usize>,
        #[arg(long, num_args = 2)]
        compare: Option<Vec<String>>,
    }

    fn split(args: &[&str]) -> (Vec<OsString>, Vec<OsString>) {
        let mut cmd = T::command();
        cmd.build();
        split_paths(&cmd, os(args))
    }

    #[test]
    fn paths_after_the_first_come_out() {
        let (kept, paths) =
            split(&["t", "a", "-n", "b", "-e", "x", "c", "--ctx", "2", "d"]);
        assert_eq!(kept, os(&["t", "a", "-n", "-e", "x", "--ctx", "2"]));
        assert_eq!(paths, os(&["b", "c", "d"]));
    }

    #[test]
    fn values_of_clusters_and_equals_are_no_paths() {
        let (kept, paths) =
            split(&["t", "-nC3", "a", "-C", "4", "b", "--regexp=q", "c"]);
        assert_eq!(kept, os(&["t", "-nC3", "a", "-C", "4", "--regexp=q"]));
        assert_eq!(paths, os(&["b", "c"]));
        let (_, paths) = split(&["t", "a", "--compare", "x", "y", "b"]);
        assert_eq!(paths, os(&["b"]));
    }

    #[test]
    fn after_double_dash_all_are_paths() {
        let (kept, paths) = split(&["t", "--", "-n", "a", "--", "-"]);
        assert_eq!(kept, os(&["t", "--", "-n"]));
        assert_eq!(paths, os(&["a", "--", "-"]));
    }

    #[test]
    fn unsure_readings_take_nothing_out() {
        for args in [
            &["t", "a", "-x", "b"][..],
            &["t", "a", "--nope", "b"],
            &["t", "a", "-e", "-n", "b"],
            &["t", "a", "--numbers=1", "b"],
            &["t", "a", "-e"],
            &["t", "a", "--compare", "x"],
        ] {
            let (kept, paths) = split(args);
            assert_eq!(kept, os(args), "{args:?}");
            assert!(paths.is_empty(), "{args:?}");
        }
    }

    /// The search's own command line read with and without the split:
    /// the same `Args`, or the same error, for random command lines made
    /// of its options (every long and short name, values glued, after
    /// `=` or apart, some that look like options) and paths.
    #[test]
    fn the_split_reads_as_clap_reads() {
        use super::super::{args::Args, parse_search_with};
        let mut cmd = Args::command();
        cmd.build();
        let mut words: Vec<Vec<String>> = Vec::new();
        let values = ["3", "x", "-", "-n", "", "auto", "json", "a=b", "0"];
        for arg in cmd.get_arguments().filter(|a| !a.is_positional()) {
            let takes = arg.get_action().takes_values();
            let n = arg.get_num_args().map_or(0, |r| r.min_values());
            for (i, v) in values.iter().enumerate() {
                let vals: Vec<String> = (0..n)
                    .map(|k| values[(i + k) % values.len()].into())
                    .collect();
                if let Some(l) = arg.get_long() {
                    let mut w = vec![format!("--{l}")];
                    w.extend(vals.iter().cloned());
                    words.push(w);
                    if takes {
                        words.push(vec![format!("--{l}={v}")]);
                    }
                }
                if let Some(c) = arg.get_short() {
                    let mut w = vec![format!("-{c}")];
                    w.extend(vals.iter().cloned());
                    words.push(w.clone());
                    words.push(vec![format!("-n{c}{v}")]);
                    w[0] = format!("-c{c}");
                    words.push(w);
                }
            }
        }
        for p in ["a", "b/c", "-", "--", "merge", "x y", "-q", "d"] {
            for _ in 0..40 {
                words.push(vec![p.into()]);
            }
        }
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            usize::try_from(state % n as u64).unwrap_or(0)
        };
        let show = |r: Result<Args, clap::Error>| match r {
            Ok(a) => format!("{a:?}"),
            Err(e) => format!("{:?} {e}", e.kind()),
        };
        const ROUNDS: usize = 1200;
        let mut split_some = 0;
        for _ in 0..ROUNDS {
            let mut argv = vec!["urlgrep".to_string()];
            for _ in 0..1 + next(10) {
                argv.extend(words[next(words.len())].iter().cloned());
            }
            let argv = argv.iter().map(OsString::from).collect::<Vec<_>>();
            if !split_paths(&cmd, argv.clone()).1.is_empty() {
                split_some += 1;
            }
            let whole = show(parse_search_with(argv.clone(), false));
            let split = show(parse_search_with(argv.clone(), true));
            assert_eq!(whole, split, "{argv:?}");
        }
        // The split is taken often enough for the comparison to mean
        // something.
        assert!(split_some * 10 > ROUNDS, "{split_some}");
    }
}
