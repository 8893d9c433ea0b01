package dev.quarry.api;
