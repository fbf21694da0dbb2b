//! API stage, operations: the names of the service's operations (the spec's
//! seven HTTP operations and MCP's two connector tools), so the parameter
//! table can say which operations take each parameter.

/// One operation of the service.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operation {
    /// `GET /api/v1` (`get_api_info`).
    ApiInfo,
    /// `GET /api/v1/deals` (`find_deals`).
    Deals,
    /// `GET /api/v1/models/prices` (`get_model_prices`).
    ModelPrices,
    /// `GET /api/v1/vehicles` (`search_vehicles`).
    Search,
    /// `GET /api/v1/vehicles/{id}` (`get_vehicle`).
    Vehicle,
    /// `GET /api/v1/compare` (`compare_vehicles`).
    Compare,
    /// `GET /api/v1/catalogue` (`get_catalogue`).
    Catalogue,
    /// MCP `search`: discovery by words (connector shape).
    ConnectorSearch,
    /// MCP `fetch`: one sourced record (connector shape).
    ConnectorFetch,
}
