package dev.quarry.benchmarks;
