//! Criterion benches of each lane, for development: `cargo bench --bench lanes`. The numbers
//! to report come from `cargo run --release --example throughput`, which measures every lane
//! against the JSON floor in one run.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mcp_agent_view::{convert, history, script, HistoryOptions, Message, Provenance, ReferenceRegistry, Target};

#[path = "support/corpora.rs"]
mod corpora;

fn lanes(c: &mut Criterion) {
    let mut rng = corpora::Bytes(0x9e37_79b9_7f4a_7c15);
    let mixed: Vec<u8> = corpora::mixed(&mut rng).into_iter().take(1).flatten().collect();
    let image = corpora::image_4mib(&mut rng);
    let wide = corpora::wide();
    let deep = corpora::deep(&mut rng);
    let registry = ReferenceRegistry::with_seed(1);
    let anthropic = Target::anthropic();

    let mut group = c.benchmark_group("lanes");
    for (name, doc) in [("mixed_one", &mixed), ("wide", &wide), ("image", &image)] {
        group.throughput(Throughput::Bytes(doc.len() as u64));
        group.bench_function(format!("floor/{name}"), |b| {
            b.iter(|| serde_json::from_slice::<serde::de::IgnoredAny>(black_box(doc)).unwrap());
        });
        group.bench_function(format!("history/{name}"), |b| {
            b.iter(|| history(black_box(doc), &registry, &HistoryOptions::default()).unwrap());
        });
    }
    group.throughput(Throughput::Bytes(image.len() as u64));
    group.bench_function("convert/image", |b| {
        b.iter(|| {
            let message = Message::parse(black_box(&image)).unwrap();
            convert(&message, Provenance::PushEvent, &registry, &anthropic)
                .unwrap()
                .content
                .len()
        });
    });
    group.throughput(Throughput::Bytes(deep.len() as u64));
    group.bench_function("floor/deep", |b| {
        b.iter(|| serde_json::from_slice::<serde::de::IgnoredAny>(black_box(&deep)).unwrap());
    });
    group.bench_function("script/deep", |b| {
        b.iter(|| script(black_box(&deep), &registry, &anthropic).unwrap());
    });
    group.finish();
}

criterion_group!(benches, lanes);
criterion_main!(benches);
