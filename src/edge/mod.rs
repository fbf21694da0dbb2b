//! Edge stage: the `autoprecios-edge` HTTP server. Reads a tree `generate`
//! wrote (the compact catalogue and the manifest), answers every operation of
//! the spec with any parameters from memory, serves the static tree, and
//! swaps in a newly generated tree without dropping requests.
//!
//! Router shape: the API routes and the static-file fallback sit under one
//! policy layer (query limit, methods, CORS, conditional requests, caching
//! headers); the MCP endpoint `/mcp` and the host's `/healthz` sit beside
//! it with their own rules; request logging wraps everything. In front of
//! the router, the shortcut answers a URL whose answer the tree holds
//! through the same policy and log ([`shortcut`]); in front of hyper, a
//! connection's fast lane sends those answers itself until a request is
//! not one of them ([`connection`]).

pub mod alerts;
pub mod answer;
pub mod answers;
pub mod composed;
pub mod connection;
pub mod files;
pub mod handlers;
pub mod health;
pub mod http;
pub mod listed;
pub mod listing;
pub mod loader;
pub mod mcp;
pub mod moved;
pub mod overload;
pub mod policy;
pub mod ranges;
pub mod request_log;
pub mod serve;
pub mod shortcut;
pub mod skeleton;
pub mod state;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use axum::middleware;
use tower_http::catch_panic::CatchPanicLayer;
use tracing::{error, info};

pub use connection::ConnectionLimits;
pub use loader::RELOAD_POLL;
use loader::{Loader, log_loaded};
pub use shortcut::App;
pub use state::{AppState, Site};

/// Serves a tree written by `autoprecios generate`: the JSON API with any
/// parameters, and the static site.
#[derive(Debug, Clone, clap::Parser)]
#[command(name = "autoprecios-edge", version)]
pub struct Args {
    /// Directory of the generated tree (with manifest.json and the edge data in _edge/).
    #[arg(long, default_value = "output")]
    pub root: PathBuf,
    /// Address and port to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// A browser origin (`scheme://host[:port]`) allowed to call /mcp besides
    /// the site's own; repeat for more. Requests without Origin are allowed.
    #[arg(long = "mcp-allowed-origin", value_name = "ORIGIN", value_parser = mcp::origin::parse_allowed_origin)]
    pub mcp_allowed_origins: Vec<String>,
    /// Memory budget of the response cache, in MiB (each loaded tree has its
    /// own; a reload drops the old one with its tree).
    #[arg(long, value_name = "MIB", default_value_t = answers::DEFAULT_CACHE_BYTES >> 20)]
    pub cache_mib: u64,
    /// Requests in flight at most; beyond it a request gets a 503 with
    /// Retry-After at once instead of waiting in a queue.
    #[arg(long, value_name = "N", default_value_t = overload::DEFAULT_MAX_IN_FLIGHT)]
    pub max_in_flight: usize,
    /// Hours after `snapshotAt` beyond which `/healthz` answers 503 `stale`
    /// (a scraper that stopped); default: never.
    #[arg(long, value_name = "HOURS", value_parser = parse_hours)]
    pub max_age: Option<Duration>,
}

/// A positive number of hours (fractions allowed), as a duration.
pub fn parse_hours(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(hours) if hours.is_finite() && hours > 0.0 => {
            Ok(Duration::from_secs_f64(hours * 3600.0))
        }
        _ => Err(format!("{text:?} is not a positive number of hours")),
    }
}

/// Settings of the application beyond the loaded tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppOptions {
    /// The MCP endpoint's.
    pub mcp: mcp::McpOptions,
    /// Requests in flight at most (see [`overload`]).
    pub max_in_flight: usize,
    /// Age of the snapshot beyond which `/healthz` answers 503 (see [`health`]).
    pub max_age: Option<Duration>,
}

impl Default for AppOptions {
    fn default() -> Self {
        AppOptions {
            mcp: mcp::McpOptions::default(),
            max_in_flight: overload::DEFAULT_MAX_IN_FLIGHT,
            max_age: None,
        }
    }
}

/// The whole HTTP application over `state`: testable with `oneshot`, no socket.
pub fn app(state: AppState) -> App {
    app_with(state, &AppOptions::default())
}

/// [`app`] with its settings: the shortcut to the answers the tree holds
/// ([`shortcut`]), then the router.
pub fn app_with(state: AppState, options: &AppOptions) -> App {
    let shed = middleware::from_fn_with_state(
        overload::InFlight::new(options.max_in_flight),
        overload::shed,
    );
    let site = handlers::routes()
        .merge(composed::routes())
        .fallback(files::serve)
        // A panic becomes a JSON 500 inside the policy, so it still gets no-store.
        .layer(CatchPanicLayer::custom(http::panic_response))
        // Inside the policy, so a shed request still gets CORS and no-store.
        .layer(shed.clone())
        .layer(middleware::from_fn(policy::policy));
    // Added after the policy layer, so outside it: /mcp takes POST bodies
    // and enforces its own limits and headers.
    let router = site
        .route(
            mcp::PATH,
            mcp::route(state.clone(), &options.mcp).layer(shed),
        )
        .route(health::PATH, {
            let max_age = options.max_age;
            axum::routing::get(move |state| health::healthz(state, max_age))
        })
        .layer(middleware::from_fn(request_log::log_request))
        .with_state(state.clone());
    App::new(state, router)
}

/// Loads the tree, listens, serves until SIGTERM or ctrl-c, reloading the
/// tree on SIGHUP and whenever its manifest changes.
pub async fn run(args: Args) -> anyhow::Result<()> {
    let root = args.root.clone();
    let cache_bytes = args.cache_mib.saturating_mul(1 << 20);
    let (state, loader) = tokio::task::spawn_blocking(move || Loader::start(root, cache_bytes))
        .await
        .context("loading the tree")?
        .with_context(|| format!("loading the tree at {}", args.root.display()))?;
    log_loaded(&state);
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("listening on {}", args.listen))?;
    info!(address = %args.listen, root = %args.root.display(), "serving");
    tokio::spawn(forward_hangups(loader));
    let options = AppOptions {
        mcp: mcp::McpOptions {
            allowed_origins: args.mcp_allowed_origins.clone(),
        },
        max_in_flight: args.max_in_flight,
        max_age: args.max_age,
    };
    let app = app_with(state, &options);
    serve::serve(
        listener,
        app,
        ConnectionLimits::default(),
        shutdown_signal(),
    )
    .await;
    info!("stopped");
    Ok(())
}

/// Asks the loader for a reload at every SIGHUP (it polls the manifest by
/// itself).
async fn forward_hangups(loader: Loader) {
    let mut hangup = hangup_stream();
    loop {
        next_hangup(&mut hangup).await;
        if !loader.reload_now() {
            return;
        }
    }
}

#[cfg(unix)]
type Hangup = Option<tokio::signal::unix::Signal>;
#[cfg(not(unix))]
type Hangup = ();

#[cfg(unix)]
fn hangup_stream() -> Hangup {
    use tokio::signal::unix::{SignalKind, signal};
    signal(SignalKind::hangup())
        .map_err(|err| error!("SIGHUP reloads disabled: {err}"))
        .ok()
}

#[cfg(not(unix))]
fn hangup_stream() -> Hangup {}

/// The next SIGHUP; never, where there is none.
#[cfg(unix)]
async fn next_hangup(hangup: &mut Hangup) {
    let received = match hangup {
        Some(stream) => stream.recv().await.is_some(),
        None => false,
    };
    if !received {
        // No handler, or the stream ended: never report a SIGHUP again.
        *hangup = None;
        std::future::pending::<()>().await;
    }
}

#[cfg(not(unix))]
async fn next_hangup(_: &mut Hangup) {
    std::future::pending().await
}

/// Resolves on ctrl-c or SIGTERM; in-flight requests then finish.
async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(err) = tokio::signal::ctrl_c().await {
            error!("ctrl-c handler: {err}");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut stream) => {
                stream.recv().await;
            }
            Err(err) => {
                error!("SIGTERM handler: {err}");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
    info!("shutting down: finishing in-flight requests");
}
