//! What the fuzz targets share: the generated tree the edge's targets
//! serve, and the runtime they drive it on.

use autoprecios::edge::{App, AppState, app};

/// The edge over the tree `AUTOPRECIOS_FUZZ_TREE` names (fuzz/run.sh
/// generates it from the bundled snapshot), and a single-threaded runtime
/// with timers to drive it.
pub fn edge_over_tree() -> (tokio::runtime::Runtime, App) {
    let root = std::env::var("AUTOPRECIOS_FUZZ_TREE")
        .expect("AUTOPRECIOS_FUZZ_TREE names a generated tree (fuzz/run.sh sets it)");
    let state = AppState::load(root.as_ref()).expect("load the tree");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("runtime");
    (runtime, app(state))
}
