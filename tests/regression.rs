//! One file per bug fixed, here or in the runtimes this crate replaces.

mod common;

#[path = "regression/containers_lost_their_blocks.rs"]
mod containers_lost_their_blocks;
#[path = "regression/embedded_resource_read_as_reference.rs"]
mod embedded_resource_read_as_reference;
#[path = "regression/example_clients_dropped_non_text_blocks.rs"]
mod example_clients_dropped_non_text_blocks;
#[path = "regression/example_clients_ended_on_a_protocol_error.rs"]
mod example_clients_ended_on_a_protocol_error;
#[path = "regression/example_clients_sent_empty_structured_only_results.rs"]
mod example_clients_sent_empty_structured_only_results;
#[path = "regression/history_lane_ignored_what_tool_results_honour.rs"]
mod history_lane_ignored_what_tool_results_honour;
#[path = "regression/labels_forged_stub_lines.rs"]
mod labels_forged_stub_lines;
#[path = "regression/one_bad_block_lost_the_whole_result.rs"]
mod one_bad_block_lost_the_whole_result;
#[path = "regression/prompt_roles_passed_through.rs"]
mod prompt_roles_passed_through;
#[path = "regression/provider_shapes_the_apis_refuse.rs"]
mod provider_shapes_the_apis_refuse;
#[path = "regression/resource_contents_without_string_text_leaked_uris.rs"]
mod resource_contents_without_string_text_leaked_uris;
#[path = "regression/script_lane_copied_what_the_others_mark.rs"]
mod script_lane_copied_what_the_others_mark;
#[path = "regression/script_lane_leaked_read_resource_uris.rs"]
mod script_lane_leaked_read_resource_uris;
