//! One file per bug fixed, here or in the runtimes this crate replaces.

mod common;

#[path = "regression/embedded_resource_read_as_reference.rs"]
mod embedded_resource_read_as_reference;
#[path = "regression/one_bad_block_lost_the_whole_result.rs"]
mod one_bad_block_lost_the_whole_result;
#[path = "regression/script_lane_leaked_read_resource_uris.rs"]
mod script_lane_leaked_read_resource_uris;
