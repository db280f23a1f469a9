package com.llmserve.app.models;

import com.llmserve.app.resilience.Failover;
import com.llmserve.engine.model.ModelKind;
import com.llmserve.engine.tokenizer.Tokenizer;
import java.util.List;

/** A model that is loaded, warmed up and answering requests. */
public sealed interface ServedModel extends AutoCloseable permits ReplicatedModel {

    String id();

    ModelKind kind();

    /** {@code general.architecture} of its file. */
    String architecture();

    Tokenizer tokenizer();

    /** The most tokens one sequence may hold (prompt and output for a completion model, one input for an embedding model). */
    int maxModelLen();

    /** Where it runs, for logs and health details. */
    String backendDescription();

    /** The routers of a model placed on GPUs, one per GPU replica; empty for a model on the CPU. */
    List<Failover> failovers();

    /** Frees its engine, backend and file; requests still running end. */
    @Override
    void close();
}
