//! Tests of the batches: the pool, parts to a report that may stop, the
//! size of a hit.

use super::super::report::BatchUrls;
use super::*;
use crate::input::{Input, InputError};

/// A cleared batch whose hits hold `bytes` bytes of capacity.
fn holding(bytes: usize) -> Box<Batch> {
    let mut batch = Box::<Batch>::default();
    batch.hits.reserve_exact(bytes / size_of::<Found>().max(1));
    batch
}

/// Parts to a report that may stop: 1, 2, 4… up to `PART_HITS`.
#[test]
fn eager_parts_double() {
    let mut e = Eager::default();
    let mut sizes = Vec::new();
    let mut hits = 0;
    while sizes.len() < 20 {
        hits += 1;
        if e.due(hits) {
            sizes.push(hits);
            hits = 0;
        }
    }
    assert_eq!(sizes[..5], [1, 2, 4, 8, 16]);
    assert_eq!(sizes[19], PART_HITS);
}

/// The pool bounds what it holds in all, not each batch: a batch
/// over `LARGEST` keeps its pages while the pool has room, and is
/// cut back once it would hold more than `KEEP * LARGEST`.
#[test]
fn the_pool_bounds_its_total_not_each_batch() {
    let spare = Spare::default();
    let big = 3 * Spare::LARGEST;
    spare.give(holding(big));
    let held = |s: &Spare| -> Vec<usize> {
        s.0.lock().map(|v| v.iter().map(|b| b.held()).collect()).unwrap()
    };
    let whole = |b: &usize| *b > 2 * Spare::LARGEST;
    assert!(whole(&held(&spare)[0]), "{:?}", held(&spare));
    for _ in 0..Spare::KEEP {
        spare.give(holding(big));
    }
    let all = held(&spare);
    assert!(all.len() <= Spare::KEEP, "{all:?}");
    assert!(all.iter().sum::<usize>() <= Spare::KEEP * Spare::LARGEST);
    // two kept whole, the rest cut back while they fit
    assert_eq!(all.iter().filter(|b| whole(b)).count(), 2, "{all:?}");
    assert!(all.len() > 2, "{all:?}");
}

/// A hit outside mail does not carry the mail half's bytes: a 4 MiB
/// slice of 24-byte URLs held 53 MB a thread with it inline (208
/// bytes a hit; issue 33.6).
#[test]
fn a_hit_outside_mail_is_small() {
    assert!(size_of::<Found>() <= 112, "{}", size_of::<Found>());
}

/// The faults of a batch are reported in their place among its hits:
/// before the hits found after them, several at one place in order,
/// those after the last hit at the end (the report looks at where the
/// next fault goes only when it is due, issue 33).
#[test]
fn faults_are_reported_among_the_hits_in_place() {
    struct Order(Vec<String>);
    impl Report for Order {
        fn begin(&mut self, _: &Input) -> io::Result<()> {
            Ok(())
        }
        fn hit(&mut self, _: &Input, hit: &Hit<'_>) -> io::Result<()> {
            self.0.push(String::from_utf8_lossy(hit.url).into_owned());
            Ok(())
        }
        fn error(&mut self, err: &InputError) -> io::Result<()> {
            self.0.push(format!("fault {}", err.offset.unwrap_or(0)));
            Ok(())
        }
        fn warning(&mut self, _: &Input, _: u64, _: &str) -> io::Result<()> {
            Ok(())
        }
        fn end(
            &mut self,
            _: &Input,
            _: &super::super::report::InputDone,
        ) -> io::Result<()> {
            Ok(())
        }
    }
    let text = b"http://a.example/ http://b.example/ http://c.example/";
    let finder = crate::search::Finder::new();
    // (hits before the fault, offset) for each fault, in order.
    for faults in [
        vec![],
        vec![(0, 1)],
        vec![(1, 2), (1, 3), (3, 4)],
        vec![(0, 5), (2, 6), (3, 7), (3, 8)],
    ] {
        let mut batch = Batch::default();
        let mut want = Vec::new();
        let mut pending = faults.iter().peekable();
        for (k, m) in finder.find_iter(text).enumerate() {
            while let Some((_, offset)) = pending.next_if(|f| f.0 <= k) {
                batch.faults.push((k, *offset, "damaged".to_owned()));
                want.push(format!("fault {offset}"));
            }
            batch.push(Position::default(), &m, None, false, None);
            want.push(String::from_utf8_lossy(m.url()).into_owned());
        }
        for (k, offset) in pending {
            batch.faults.push((*k, *offset, "damaged".to_owned()));
            want.push(format!("fault {offset}"));
        }
        let input = Input {
            source: crate::input::Source::Stdin,
            size: None,
            regular: false,
            walked: false,
            anchor: None,
        };
        let mut order = Order(Vec::new());
        batch.report(&input, &mut order).unwrap();
        assert_eq!(order.0, want, "{faults:?}");
    }
}

/// A batch of matches alone goes whole to a report that takes it
/// ([`Report::urls`]): its positions and URLs in order, no `hit` call;
/// a batch with a rejected candidate or a fault, or a report that
/// declines, is given each hit as before (issue 33: a plain listing of
/// dense URLs built a `Hit` and asked the selection for each).
#[test]
fn a_batch_of_matches_alone_goes_whole_to_a_report_that_takes_it() {
    #[derive(Default)]
    struct Taker {
        takes: bool,
        offered: usize,
        got: Vec<(u64, String)>,
        hits: Vec<(u64, String)>,
    }
    impl Report for Taker {
        fn begin(&mut self, _: &Input) -> io::Result<()> {
            Ok(())
        }
        fn hit(&mut self, _: &Input, hit: &Hit<'_>) -> io::Result<()> {
            let url = String::from_utf8_lossy(hit.url).into_owned();
            self.hits.push((hit.at.start, url));
            Ok(())
        }
        fn urls(
            &mut self,
            _: &Input,
            urls: BatchUrls<'_>,
        ) -> io::Result<bool> {
            self.offered += 1;
            if self.takes {
                assert_eq!(urls.len(), urls.iter().count());
                for (at, url) in urls.iter() {
                    let url = String::from_utf8_lossy(url).into_owned();
                    self.got.push((at.start, url));
                }
            }
            Ok(self.takes)
        }
        fn error(&mut self, _: &InputError) -> io::Result<()> {
            Ok(())
        }
        fn warning(&mut self, _: &Input, _: u64, _: &str) -> io::Result<()> {
            Ok(())
        }
        fn end(
            &mut self,
            _: &Input,
            _: &super::super::report::InputDone,
        ) -> io::Result<()> {
            Ok(())
        }
    }
    let text = b"http://a.example/ http://b.example/ http://c.example/";
    let finder = crate::search::Finder::new();
    let input = Input {
        source: crate::input::Source::Stdin,
        size: None,
        regular: false,
        walked: false,
        anchor: None,
    };
    // (a reject among them, a fault among them, the report takes them)
    for (reject, fault, takes) in [
        (false, false, true),
        (false, false, false),
        (true, false, true),
        (false, true, true),
    ] {
        let mut batch = Batch::default();
        let mut want = Vec::new();
        for (k, m) in finder.find_iter(text).enumerate() {
            let at = Position { start: k as u64 * 18, ..Position::default() };
            let r = (reject && k == 1).then_some(Reject::Empty);
            batch.push(at, &m, r, false, None);
            want.push((
                at.start,
                String::from_utf8_lossy(m.url()).into_owned(),
            ));
        }
        if fault {
            batch.faults.push((1, 5, "damaged".to_owned()));
        }
        let mut taker = Taker { takes, ..Taker::default() };
        batch.report(&input, &mut taker).unwrap();
        let whole = !reject && !fault;
        assert_eq!(taker.offered, usize::from(whole), "{reject} {fault}");
        let (given, other) = match whole && takes {
            true => (&taker.got, &taker.hits),
            false => (&taker.hits, &taker.got),
        };
        assert_eq!(*given, want, "{reject} {fault} {takes}");
        assert!(other.is_empty(), "{reject} {fault} {takes}");
    }
}
