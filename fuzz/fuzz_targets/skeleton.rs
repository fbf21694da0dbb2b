//! Fuzz target: a skeleton (`edge::skeleton`) of any bytes over a real
//! generated tree's index. Whatever the bytes: never a panic, and when a
//! skeleton is made, fleshing it out gives the very bytes back. The seeds are real list answers, so the
//! fuzzer starts from bytes full of Summaries and breaks them.
//!
//! The tree comes from `AUTOPRECIOS_FUZZ_TREE` (fuzz/run.sh builds one).

#![no_main]

use std::sync::OnceLock;

use autoprecios::edge::AppState;
use autoprecios::edge::skeleton::Skeleton;
use libfuzzer_sys::fuzz_target;

fn state() -> &'static AppState {
    static STATE: OnceLock<AppState> = OnceLock::new();
    STATE.get_or_init(|| {
        let root = std::env::var("AUTOPRECIOS_FUZZ_TREE")
            .expect("AUTOPRECIOS_FUZZ_TREE names a generated tree (fuzz/run.sh sets it)");
        AppState::load(root.as_ref()).expect("load the tree")
    })
}

fuzz_target!(|data: &[u8]| {
    let site = state().site();
    let index = site.index();
    if let Some(skeleton) = Skeleton::of(data, index) {
        assert_eq!(skeleton.flesh(index), data, "the bytes back");
    }
});
