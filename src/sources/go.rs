//! stub
use super::SourceError;
use crate::model::Results;
pub fn parse(_text: &str, origin: &str) -> Result<Results, SourceError> {
    Err(super::invalid(origin, "go", "todo"))
}
pub fn has_results(_text: &str) -> bool {
    false
}
