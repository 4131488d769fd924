//! [`Format::RecordRefs`](crate::output::Format::RecordRefs) and
//! [`Format::Records`](crate::output::Format::Records): every record of
//! the JSON Lines output handed to a function instead of written,
//! borrowed from the hit for the time of the call (a reader that copies
//! the fields at once: the Python module's Arrow columns), or owned (an
//! allocation per string per URL: what a program holds past the batch it
//! came from). One writer: an owned record is a borrowed one made owned
//! ([`RecordVisitor::owned`]). A match record is built as a
//! [`MatchRef`](crate::output::MatchRef), without allocating, and made a
//! [`Record`] only for a visitor that asks for one.

use crate::driver::InputDone;
use crate::input::{Input, InputError};
use crate::output::emit::{Ctx, Emit, Run, Tally, Url};
use crate::output::json::Record;
use crate::output::record::{
    end_record, error_record, match_ref_memo, origin, reject_record,
    summary_record,
};
use crate::output::record_ref::RefMemo;
use crate::output::record_visitor::RecordVisitor;
use crate::parse::Reject;
use std::io::{self, Write};

/// The borrowed records writer: shows, writes nothing.
#[derive(Debug)]
pub(super) struct Records {
    visit: Option<RecordVisitor>,
    /// What one match record leaves for the next.
    memo: RefMemo,
}

impl Records {
    /// A writer showing to `visit` (nowhere when `None`).
    pub(super) fn new(visit: Option<RecordVisitor>) -> Records {
        Records { visit, memo: RefMemo::default() }
    }

    fn visit(&self, rec: &Record<'_>) -> io::Result<()> {
        match &self.visit {
            Some(v) => v.visit(rec),
            None => Ok(()),
        }
    }
}

impl<W: Write> Emit<W> for Records {
    fn needs_scheme(&self) -> bool {
        true
    }

    fn begin(
        &mut self,
        _: &mut W,
        cx: &Ctx<'_>,
        input: &Input,
    ) -> io::Result<()> {
        self.visit(&Record::Begin(origin(&cx.opts.stdin_label, &input.source)))
    }

    fn url(
        &mut self,
        _: &mut W,
        cx: &Ctx<'_>,
        url: &Url<'_>,
    ) -> io::Result<()> {
        match &self.visit {
            Some(v) => v.visit_match(match_ref_memo(cx, url, &mut self.memo)),
            None => Ok(()),
        }
    }

    fn reject(
        &mut self,
        _: &mut W,
        cx: &Ctx<'_>,
        url: &Url<'_>,
        reject: Reject,
    ) -> io::Result<()> {
        self.visit(&Record::Reject(reject_record(cx, url, reject)))
    }

    fn error(
        &mut self,
        _: &mut W,
        cx: &Ctx<'_>,
        err: &InputError,
    ) -> io::Result<()> {
        self.visit(&Record::Error(error_record(cx, err)))
    }

    fn end(
        &mut self,
        _: &mut W,
        cx: &Ctx<'_>,
        input: &Input,
        done: &InputDone,
        tally: &Tally,
    ) -> io::Result<()> {
        self.visit(&Record::End(end_record(cx, &input.source, done, tally)))
    }

    fn finish(
        &mut self,
        _: &mut W,
        _: &Ctx<'_>,
        run: &Run<'_>,
    ) -> io::Result<()> {
        self.visit(&Record::Summary(summary_record(run)))
    }
}
