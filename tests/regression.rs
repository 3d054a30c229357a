//! One file per bug fixed, here or in the runtimes this crate replaces.

mod common;
#[path = "support/fetching.rs"]
mod fetching;

#[path = "regression/a_result_that_was_no_message_reached_the_history.rs"]
mod a_result_that_was_no_message_reached_the_history;
#[path = "regression/a_second_content_encoding_was_ignored.rs"]
mod a_second_content_encoding_was_ignored;
#[path = "regression/an_empty_turn_made_an_empty_message.rs"]
mod an_empty_turn_made_an_empty_message;
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
#[path = "regression/file_references_read_anything.rs"]
mod file_references_read_anything;
#[path = "regression/files_escaped_through_a_swapped_directory.rs"]
mod files_escaped_through_a_swapped_directory;
#[path = "regression/history_lane_ignored_what_tool_results_honour.rs"]
mod history_lane_ignored_what_tool_results_honour;
#[path = "regression/labels_carried_the_uri.rs"]
mod labels_carried_the_uri;
#[path = "regression/labels_forged_stub_lines.rs"]
mod labels_forged_stub_lines;
#[path = "regression/labels_kept_invisible_and_lookalike_characters.rs"]
mod labels_kept_invisible_and_lookalike_characters;
#[path = "regression/labels_repeated_their_own_uri.rs"]
mod labels_repeated_their_own_uri;
#[path = "regression/one_bad_block_lost_the_whole_result.rs"]
mod one_bad_block_lost_the_whole_result;
#[path = "regression/prompt_roles_passed_through.rs"]
mod prompt_roles_passed_through;
#[path = "regression/provider_shapes_the_apis_refuse.rs"]
mod provider_shapes_the_apis_refuse;
#[path = "regression/refusals_echoed_the_scheme.rs"]
mod refusals_echoed_the_scheme;
#[path = "regression/resource_contents_without_string_text_leaked_uris.rs"]
mod resource_contents_without_string_text_leaked_uris;
#[path = "regression/result_types_changed_what_a_decoded_message_reads.rs"]
mod result_types_changed_what_a_decoded_message_reads;
#[path = "regression/saving_followed_a_planted_link.rs"]
mod saving_followed_a_planted_link;
#[path = "regression/script_lane_copied_what_the_others_mark.rs"]
mod script_lane_copied_what_the_others_mark;
#[path = "regression/script_lane_leaked_read_resource_uris.rs"]
mod script_lane_leaked_read_resource_uris;
#[path = "regression/three_ipv6_ranges_judged_public.rs"]
mod three_ipv6_ranges_judged_public;
#[path = "regression/unreadable_safety_fields_were_dropped.rs"]
mod unreadable_safety_fields_were_dropped;
#[path = "regression/utf16_text_sniffed_as_mp3.rs"]
mod utf16_text_sniffed_as_mp3;
