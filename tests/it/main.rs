mod generate;
mod openapi;
mod sample;
mod snapshot;
