package com.llmserve.gpu;

import com.llmserve.gpu.spi.DeviceDriver;

/** {@link DeviceMemory} over a device driver; events without timing, which are cheaper to record. */
record DriverMemory(DeviceDriver driver) implements DeviceMemory {

    @Override
    public long malloc(long bytes) {
        return driver.malloc(bytes);
    }

    @Override
    public void free(long pointer) {
        driver.free(pointer);
    }

    @Override
    public long createEvent() {
        return driver.createEvent(false);
    }

    @Override
    public void recordEvent(long event, long stream) {
        driver.recordEvent(event, stream);
    }

    @Override
    public boolean eventDone(long event) {
        return driver.eventDone(event);
    }

    @Override
    public void synchronizeEvent(long event) {
        driver.synchronizeEvent(event);
    }

    @Override
    public void destroyEvent(long event) {
        driver.destroyEvent(event);
    }
}
