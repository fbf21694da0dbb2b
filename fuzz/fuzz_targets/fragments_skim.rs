//! Fuzz target: the edge's skim of the page fragments file
//! (`edge::state::fragments`), a MessagePack reader written here. Any bytes
//! are either refused or skimmed: never a panic, a hang, or an allocation
//! the input does not pay for. (A version's value is decoded only when a
//! page shows it, from a file whose tag the load checked.)

#![no_main]

use autoprecios::composed::Fragments;
use autoprecios::edge::state::fragments::FileFragments;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let file = std::fs::File::open("/dev/null").expect("/dev/null");
    if let Ok(skimmed) = FileFragments::skim(data, file) {
        let _ = skimmed.compare_rows().len();
        let _ = skimmed.publishes("a");
    }
});
