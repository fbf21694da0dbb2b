//! Fuzz target: the edge data file (`_edge/catalogue.msgpack`) as the edge
//! decodes it at every load (`api::facts::IndexFile`, its vehicles into
//! `Columns`), then indexes it over empty records and prices. Any bytes are
//! either refused or indexed: never a panic, a hang, or room made for more
//! entries than `Columns` caps. (A tree's file is also checked against the
//! manifest's tag before it is decoded; this is the decoder alone.)

#![no_main]

use autoprecios::api::Index;
use autoprecios::api::facts::IndexFile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(file) = autoprecios::msgpack::from_slice::<IndexFile>(data) {
        let empty = || std::fs::File::open("/dev/null").expect("/dev/null");
        if let Ok(index) = Index::from_file(file, empty(), empty()) {
            let _ = index.len();
        }
    }
});
