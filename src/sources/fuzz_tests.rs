//! No input makes the readers panic.
