//! The progress bar of a long run on a terminal (indicatif, on stderr).
//!
//! Two rules (issue 34.1): the bar is cleared before anything is printed
//! to a terminal stdout, so that no line is written onto it (a `-c`
//! count once came out as `… 12.77 MiB/s ETA 0s79650`); and it shows no
//! rate, nor an ETA, until one is measured: the mean since the bar
//! appeared, once [`MEASURED`] has passed (indicatif's own estimate
//! first showed `994.44 GiB/s`, then `0 B/s`).

use std::io::{self, Write};
use std::time::{Duration, Instant};
use urlgrep::input::{Input, InputError};
use urlgrep::output::Printer;
use urlgrep::{Hit, InputDone, Report, Wants};

/// A run shorter than this shows no progress bar.
const LONG_RUN: Duration = Duration::from_millis(1500);

/// How long the bar runs before it shows a rate.
const MEASURED: Duration = Duration::from_millis(1000);

/// Makes the bar's draw target: stderr, or a test's terminal.
pub(super) type Target = Box<dyn Fn() -> indicatif::ProgressDrawTarget + Send>;

/// The printer, plus a progress bar on a terminal once the run is long.
pub(super) struct Progress<W: Write, E: Write> {
    pub(super) printer: Printer<W, E>,
    bar: Option<indicatif::ProgressBar>,
    enabled: bool,
    /// Whether stdout is a terminal: the bar is then cleared around
    /// what is printed.
    tty_out: bool,
    /// The stored size of all inputs, when every one has a size.
    total: Option<u64>,
    done: u64,
    started: Instant,
    target: Target,
}

impl<W: Write, E: Write> Progress<W, E> {
    /// A report that shows a bar on stderr when `enabled`.
    pub(super) fn new(
        printer: Printer<W, E>,
        enabled: bool,
        tty_out: bool,
        total: Option<u64>,
        started: Instant,
    ) -> Self {
        let target: Target = Box::new(indicatif::ProgressDrawTarget::stderr);
        Progress {
            printer,
            bar: None,
            enabled,
            tty_out,
            total,
            done: 0,
            started,
            target,
        }
    }

    /// Clears the bar for good (before the run's last output).
    pub(super) fn clear(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }

    /// Runs `f` with the bar off the screen when `f` may print onto it:
    /// always for stderr, for stdout when it is a terminal.
    fn off_screen<T>(
        &mut self,
        stdout: bool,
        f: impl FnOnce(&mut Printer<W, E>) -> T,
    ) -> T {
        match &self.bar {
            Some(bar) if self.tty_out || !stdout => {
                let printer = &mut self.printer;
                bar.suspend(|| f(printer))
            }
            _ => f(&mut self.printer),
        }
    }

    fn start_bar(&mut self) {
        // Bytes as stored: a compressed file counts its compressed
        // bytes, whose total is known.
        let bar = indicatif::ProgressBar::with_draw_target(
            self.total.map(|t| t.max(self.done)),
            (self.target)(),
        );
        let template = match self.total {
            Some(_) => "{bytes:>10}/{total_bytes} {wide_bar} {rate}{eta}",
            None => "{spinner} {bytes:>10} read {rate}",
        };
        // Rates count from here, not from a jump to what was done.
        let base = self.done;
        let show_rate =
            move |s: &indicatif::ProgressState,
                  w: &mut dyn std::fmt::Write| {
                if let Some(r) = rate(s, base) {
                    let _ =
                        write!(w, "{}/s", indicatif::BinaryBytes(r as u64));
                }
            };
        let show_eta =
            move |s: &indicatif::ProgressState,
                  w: &mut dyn std::fmt::Write| {
                let left = s.len().map(|l| l.saturating_sub(s.pos()));
                if let (Some(r), Some(left)) = (rate(s, base), left) {
                    let eta = Duration::from_secs_f64(left as f64 / r);
                    let _ =
                        write!(w, " ETA {}", indicatif::HumanDuration(eta));
                }
            };
        if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
            bar.set_style(
                style.with_key("rate", show_rate).with_key("eta", show_eta),
            );
        }
        bar.set_position(self.done);
        self.bar = Some(bar);
    }
}

/// Bytes a second since the bar appeared at `base`, once [`MEASURED`]
/// has passed and some bytes were read; `None` before.
fn rate(s: &indicatif::ProgressState, base: u64) -> Option<f64> {
    let secs = s.elapsed();
    let bytes = s.pos().saturating_sub(base);
    (secs >= MEASURED && bytes > 0).then(|| bytes as f64 / secs.as_secs_f64())
}

impl<W: Write, E: Write> Report for Progress<W, E> {
    fn begin(&mut self, input: &Input) -> io::Result<()> {
        self.off_screen(true, |p| p.begin(input))
    }

    fn hit(&mut self, input: &Input, hit: &Hit<'_>) -> io::Result<()> {
        // No bar is shown while matches stream to a terminal (see
        // `show_progress`), so no hit is printed under one.
        self.printer.hit(input, hit)
    }

    /// As [`Report::hit`]: passed on as it is.
    fn urls(
        &mut self,
        input: &Input,
        urls: urlgrep::BatchUrls<'_>,
    ) -> io::Result<bool> {
        self.printer.urls(input, urls)
    }

    fn error(&mut self, err: &InputError) -> io::Result<()> {
        self.off_screen(false, |p| p.error(err))
    }

    fn warning(
        &mut self,
        input: &Input,
        offset: u64,
        what: &str,
    ) -> io::Result<()> {
        self.off_screen(false, |p| p.warning(input, offset, what))
    }

    fn end(&mut self, input: &Input, done: &InputDone) -> io::Result<()> {
        self.off_screen(true, |p| p.end(input, done))
    }

    fn wants(&self) -> Wants {
        self.printer.wants()
    }

    fn may_stop(&self) -> bool {
        self.printer.may_stop()
    }

    urlgrep::pass_on_hints!(printer);

    fn progress(&mut self, bytes: u64) {
        self.done += bytes;
        if !self.enabled {
            return;
        }
        if self.bar.is_none() && self.started.elapsed() >= LONG_RUN {
            self.start_bar();
        }
        if let Some(bar) = &self.bar {
            if self.total.is_some_and(|t| self.done > t) {
                bar.set_length(self.done);
            }
            bar.set_position(self.done);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use std::sync::{Arc, Mutex};
    use urlgrep::input::Source;
    use urlgrep::output::{Format, PrinterOptions};

    /// What reached the terminal, in order: `bar …`, `clear`, `out …`.
    type Log = Arc<Mutex<Vec<String>>>;

    fn push(log: &Log, what: String) -> io::Result<()> {
        log.lock().map_err(|_| io::Error::other("poisoned"))?.push(what);
        Ok(())
    }

    /// The terminal the bar draws on.
    #[derive(Debug)]
    struct Term(Log);

    impl indicatif::TermLike for Term {
        fn width(&self) -> u16 {
            100
        }
        fn move_cursor_up(&self, n: usize) -> io::Result<()> {
            push(&self.0, format!("up {n}"))
        }
        fn move_cursor_down(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> io::Result<()> {
            push(&self.0, format!("bar {s}"))
        }
        fn write_str(&self, s: &str) -> io::Result<()> {
            push(&self.0, format!("bar {s}"))
        }
        fn clear_line(&self) -> io::Result<()> {
            push(&self.0, "clear".into())
        }
        fn flush(&self) -> io::Result<()> {
            Ok(())
        }
    }

    /// Stdout on the same terminal.
    struct Out(Log);

    impl Write for Out {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            push(&self.0, format!("out {}", String::from_utf8_lossy(b)))?;
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// A `-c` run on a terminal, started two seconds ago (long enough
    /// for a bar), its bar drawn on the log.
    fn counting(log: &Log) -> Progress<Out, Out> {
        let opts = PrinterOptions {
            format: Format::Count,
            line_buffered: true,
            ..PrinterOptions::default()
        };
        let printer = Printer::new(opts, Out(log.clone()), Out(log.clone()));
        let started = Instant::now()
            .checked_sub(Duration::from_secs(2))
            .unwrap_or_else(Instant::now);
        let mut p = Progress::new(printer, true, true, Some(1000), started);
        let term = log.clone();
        p.target = Box::new(move || {
            indicatif::ProgressDrawTarget::term_like(Box::new(Term(
                term.clone(),
            )))
        });
        p
    }

    #[test]
    fn the_bar_is_cleared_before_a_count_is_printed() {
        let log = Log::default();
        let mut p = counting(&log);
        let input = Input {
            source: Source::Path(PathBuf::from("big.mbox.bz2")),
            size: Some(1000),
            regular: true,
            walked: false,
            anchor: None,
        };
        p.begin(&input).expect("begin");
        p.progress(400);
        let done = InputDone { bytes: 5000, ..InputDone::default() };
        p.end(&input, &done).expect("end");
        p.clear();
        let log = log.lock().expect("the log").clone();
        let bar =
            log.iter().position(|e| e.starts_with("bar ") && e.len() > 8);
        let out = log.iter().position(|e| e.starts_with("out "));
        let (Some(bar), Some(out)) = (bar, out) else {
            panic!("a bar and a count: {log:?}");
        };
        assert!(bar < out, "{log:?}");
        // Between the bar and the count, the bar's line is cleared and
        // nothing of it is written again.
        let between = log.get(bar + 1..out).unwrap_or_default();
        assert!(between.iter().any(|e| e == "clear"), "{log:?}");
        let last_clear = between.iter().rposition(|e| e == "clear");
        let redrawn = between.iter().rposition(|e| e.starts_with("bar "));
        assert!(redrawn < last_clear, "{log:?}");
        assert_eq!(log.get(out).map(String::as_str), Some("out 0"));
        // No rate and no ETA before one is measured (indicatif's own
        // first showed `994.44 GiB/s`, then `0 B/s`).
        let drawn: Vec<&String> =
            log.iter().filter(|e| e.starts_with("bar ")).collect();
        assert!(drawn.iter().any(|e| e.contains("400 B/1000 B")), "{log:?}");
        assert!(drawn.iter().all(|e| !e.contains("/s")), "{log:?}");
        assert!(drawn.iter().all(|e| !e.contains("ETA")), "{log:?}");
    }
}
