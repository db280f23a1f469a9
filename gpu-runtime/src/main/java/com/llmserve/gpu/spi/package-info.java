/**
 * The backend SPI and binding support: implemented by {@code com.llmserve.gpu.hip} and
 * {@code com.llmserve.gpu.cuda}, used by {@code com.llmserve.gpu}. Public only because Java has no
 * package-private across packages; nothing outside this module should depend on it.
 */
package com.llmserve.gpu.spi;
