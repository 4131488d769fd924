//! [`Format::Records`](super::Format::Records): every record of the JSON
//! Lines output handed, owned, to a function instead of written: what a
//! program or a binding (the Python module) reads without parsing JSON
//! text, and holds past the batch it came from.

use crate::driver::InputDone;
use crate::input::{Input, InputError};
use crate::output::emit::{Ctx, Emit, Run, Tally, Url};
use crate::output::json::Record;
use crate::output::options::RecordSender;
use crate::output::record::{
    end_record, error_record, match_record, origin, reject_record,
    summary_record,
};
use crate::parse::Reject;
use std::io::{self, Write};

/// The records writer: sends, writes nothing.
#[derive(Debug)]
pub(super) struct Records {
    send: Option<RecordSender>,
}

impl Records {
    /// A writer sending to `send` (nowhere when `None`).
    pub(super) fn new(send: Option<RecordSender>) -> Records {
        Records { send }
    }

    fn send(&self, rec: Record<'_>) -> io::Result<()> {
        match &self.send {
            Some(s) => s.send(rec.into_owned()),
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
        self.send(Record::Begin(origin(&cx.opts.stdin_label, &input.source)))
    }

    fn url(
        &mut self,
        _: &mut W,
        cx: &Ctx<'_>,
        url: &Url<'_>,
    ) -> io::Result<()> {
        self.send(Record::Match(match_record(cx, url)))
    }

    fn reject(
        &mut self,
        _: &mut W,
        cx: &Ctx<'_>,
        url: &Url<'_>,
        reject: Reject,
    ) -> io::Result<()> {
        self.send(Record::Reject(reject_record(cx, url, reject)))
    }

    fn error(
        &mut self,
        _: &mut W,
        cx: &Ctx<'_>,
        err: &InputError,
    ) -> io::Result<()> {
        self.send(Record::Error(error_record(cx, err)))
    }

    fn end(
        &mut self,
        _: &mut W,
        cx: &Ctx<'_>,
        input: &Input,
        done: &InputDone,
        tally: &Tally,
    ) -> io::Result<()> {
        self.send(Record::End(end_record(cx, &input.source, done, tally)))
    }

    fn finish(
        &mut self,
        _: &mut W,
        _: &Ctx<'_>,
        run: &Run<'_>,
    ) -> io::Result<()> {
        self.send(Record::Summary(summary_record(run)))
    }
}
