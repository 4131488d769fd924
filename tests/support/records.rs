//! The JSON Lines envelope as the README documents it (unknown fields
//! denied), for the CLI tests that read `--json` output; and gzip.

#![allow(dead_code)]

use serde::Deserialize;
use std::io::Write;
use std::process::Output;

/// The documented envelope, written from the README, not from the code.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
#[allow(dead_code)]
pub enum Rec {
    Begin {
        path: Option<String>,
        source: Option<String>,
        #[serde(default)]
        path_escaped: bool,
    },
    Match {
        path: Option<String>,
        source: Option<String>,
        #[serde(default)]
        path_escaped: bool,
        offset: u64,
        line: u64,
        column: u64,
        kind: String,
        url: String,
        scheme: String,
        host: Option<String>,
        flags: Vec<String>,
        #[serde(default)]
        mail: Option<MailRec>,
    },
    Reject {
        path: Option<String>,
        source: Option<String>,
        #[serde(default)]
        path_escaped: bool,
        offset: u64,
        line: u64,
        column: u64,
        kind: String,
        url: String,
        scheme: String,
        reason: String,
        message: String,
    },
    Error {
        path: Option<String>,
        source: Option<String>,
        #[serde(default)]
        path_escaped: bool,
        message: String,
    },
    End {
        path: Option<String>,
        source: Option<String>,
        #[serde(default)]
        path_escaped: bool,
        bytes: u64,
        candidates: u64,
        matches: u64,
        rejected: u64,
        #[serde(default)]
        messages: Option<u64>,
    },
    Summary {
        files: u64,
        bytes: u64,
        candidates: u64,
        matches: u64,
        rejected: u64,
        errors: u64,
        #[serde(default)]
        messages: Option<u64>,
    },
}

/// The `mail` object of a match record (`--mail`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
pub struct MailRec {
    pub message: u64,
    pub message_offset: u64,
    pub message_id: Option<String>,
    pub part: u64,
    pub location: String,
    pub encoding: String,
    pub decoded: bool,
}

/// The records of a `--json` run's standard output.
pub fn records(o: &Output) -> Vec<Rec> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))
        })
        .collect()
}

/// `data` gzip-compressed.
pub fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e =
        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}
