package com.llmserve.gpu;

/** The driver calls the caching allocator needs; an interface so its policy is testable without a GPU. */
interface DeviceMemory {

    long malloc(long bytes);

    void free(long pointer);

    long createEvent();

    void recordEvent(long event, long stream);

    boolean eventDone(long event);

    void synchronizeEvent(long event);

    void destroyEvent(long event);
}
