//! API stage, the operations table's row: what an operation is to the
//! service's surfaces (its name, which is both the OpenAPI `operationId`
//! and the MCP tool name; its HTTP path, documentation, response component
//! and how the CDN serves it; its MCP tool title and description). Each
//! operation's file in `api::ops` holds its row; `api::ops::operations`
//! lists them, and drives the edge's router, `ApiInfo.endpoints`, the
//! OpenAPI paths, the MCP tools list and the CDN rules. Every HTTP
//! operation answers the same methods ([`METHODS`]); their parameters are
//! the parameter table's rows that name them (`api::params::table`).

use crate::api::query::Operation;

/// The methods every HTTP operation answers (HEAD as GET without a body,
/// OPTIONS as the CORS preflight); any other gives 405.
pub const METHODS: &str = "GET, HEAD, OPTIONS";

/// How a static host in front of the edge serves an operation's URLs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cdn {
    /// Its one answer is a file of the tree, the URL rewritten to it.
    File(&'static str),
    /// The edge answers (query strings reach it).
    Edge,
}

/// An operation's HTTP side.
#[derive(Debug, Clone, Copy)]
pub struct Http {
    /// Its path (`{id}` for the path parameter).
    pub path: &'static str,
    /// Its OpenAPI tag.
    pub tag: &'static str,
    /// Its OpenAPI summary.
    pub summary: &'static str,
    /// Its OpenAPI description.
    pub description: &'static str,
    /// The component schema of its 200 body.
    pub body: &'static str,
    /// Whether it can answer 404 (every operation answers 304, 400, 405,
    /// 414 and 503).
    pub not_found: bool,
    /// How the CDN serves it.
    pub cdn: Cdn,
    /// Whether the edge computes its precomputed answers (the URLs the
    /// manifest lists) once when a tree loads; the others are computed on
    /// demand and cached.
    pub fixed_at_load: bool,
    /// Whether it also answers CSV (`format=csv`).
    pub csv: bool,
}

impl Http {
    /// Whether a request for `path` (without its query) is this
    /// operation's, as the edge's router matches its route: the path
    /// itself, or for a path with a parameter the path before it and one
    /// segment that is not empty.
    pub fn matches(&self, path: &str) -> bool {
        match self.before_parameter() {
            Some(before) => path
                .strip_prefix(before)
                .is_some_and(|segment| !segment.is_empty() && !segment.contains('/')),
            None => path == self.path,
        }
    }

    /// The raw value its path parameter has in `path` (empty when `path`
    /// does not start as its path does); `None` for a path without one.
    pub fn parameter<'p>(&self, path: &'p str) -> Option<&'p str> {
        self.before_parameter()
            .map(|before| path.strip_prefix(before).unwrap_or_default())
    }

    /// Its path up to its parameter, the path's last segment (`{id}`,
    /// `{month}`), when it has one.
    fn before_parameter(&self) -> Option<&'static str> {
        let start = self.path.rfind('{')?;
        self.path.ends_with('}').then(|| &self.path[..start])
    }

    /// Its path and tree file (without its leading `/`) when its one
    /// answer is a file ([`Cdn::File`]).
    pub fn file(&self) -> Option<(&'static str, &'static str)> {
        match self.cdn {
            Cdn::File(file) => Some((self.path, file.trim_start_matches('/'))),
            Cdn::Edge => None,
        }
    }
}

/// An operation's MCP tool.
#[derive(Debug, Clone, Copy)]
pub struct McpTool {
    /// Its title.
    pub title: &'static str,
    /// What `tools/list` tells an agent.
    pub description: &'static str,
}

/// One operation's row: each operation's file in `api::ops` holds its own.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    /// Which operation.
    pub operation: Operation,
    /// Its name: the OpenAPI `operationId` and the MCP tool name.
    pub name: &'static str,
    /// Its HTTP side, if HTTP serves it.
    pub http: Option<Http>,
    /// Its MCP tool, if MCP has one.
    pub tool: Option<McpTool>,
}
