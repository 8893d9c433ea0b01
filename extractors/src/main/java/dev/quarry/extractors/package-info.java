package dev.quarry.extractors;
