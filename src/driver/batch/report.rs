//! A batch's report: its warnings, fold, hits, faults and counts, in
//! input order, to a [`Report`].

use super::super::report::{BatchUrls, Hit, Report};
use super::Batch;
use crate::input::{Input, InputError};
use std::io;

impl Batch {
    /// Reports the candidates (a slice's after [`Driver::join`](crate::driver::config::Driver) has
    /// counted their numbers on).
    pub(in crate::driver) fn report<R: Report>(
        &self,
        input: &Input,
        report: &mut R,
    ) -> io::Result<()> {
        for &(offset, what) in &self.warnings {
            report.warning(input, offset, what)?;
        }
        if let Some(fold) = self.fold.as_deref().filter(|_| self.folded > 0) {
            report.folded(input, fold)?;
        }
        // A batch of matches alone, offered whole: a plain listing takes
        // it with no `Hit` built and no selection asked for each
        // (issue 33: ~190 instructions a URL of dense text).
        if self.faults.is_empty()
            && !self.hits.is_empty()
            && self.stored_rejects == 0
            && report.urls(
                input,
                BatchUrls { hits: &self.hits, urls: &self.urls },
            )?
        {
            return self.report_counted(input, report);
        }
        let mut faults = self.faults.iter().peekable();
        // The faults' place among the hits is looked at only when there
        // are faults (a peek at every hit was 7 instructions a URL).
        let mut next_fault = self.faults.first().map_or(usize::MAX, |f| f.0);
        for (k, f) in self.hits.iter().enumerate() {
            if k >= next_fault {
                while let Some((_, offset, what)) =
                    faults.next_if(|(before, _, _)| *before <= k)
                {
                    report.error(&fault(input, *offset, what))?;
                }
                next_fault = faults.peek().map_or(usize::MAX, |f| f.0);
            }
            let at = f.at;
            let url = self.urls.get(f.url.0..f.url.1).unwrap_or_default();
            let hit = Hit {
                at,
                url,
                kind: f.kind,
                scheme: f.scheme,
                host: f
                    .host
                    .and_then(|(a, b)| url.get(a as usize..b as usize)),
                flags: f.flags,
                reject: f.reject,
                record: f.record.and_then(|k| self.records.get(k)),
                repaired: f.repaired,
                defanged: f.defanged.and_then(|(a, b)| self.urls.get(a..b)),
            };
            report.hit(input, &hit)?;
        }
        for (_, offset, what) in faults {
            report.error(&fault(input, *offset, what))?;
        }
        self.report_counted(input, report)
    }

    /// Reports the candidates counted and not stored.
    fn report_counted<R: Report>(
        &self,
        input: &Input,
        report: &mut R,
    ) -> io::Result<()> {
        if self.rejected > 0 {
            report.rejects_counted(input, self.rejected)?;
        }
        if self.matched > 0 {
            report.matches_counted(input, self.matched)?;
        }
        Ok(())
    }
}

/// The error of a fault of `input`'s container at `offset`.
fn fault(input: &Input, offset: u64, what: &str) -> InputError {
    InputError {
        source: input.source.clone(),
        offset: Some(offset),
        error: io::Error::new(io::ErrorKind::InvalidData, what.to_owned()),
    }
}
