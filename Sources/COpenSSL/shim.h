#ifndef CORKBOARD_COPENSSL_SHIM_H
#define CORKBOARD_COPENSSL_SHIM_H
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/hmac.h>
#include <openssl/crypto.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <string.h>

// OpenSSL spells several settings as macros over SSL_CTX_ctrl / SSL_ctrl / BIO_ctrl, which
// Swift cannot call. These one-line wrappers give them a function each.

static inline int corkboard_SSL_CTX_set_min_proto_version(SSL_CTX *context, int version) {
    return (int)SSL_CTX_set_min_proto_version(context, version);
}

static inline int corkboard_SSL_CTX_set_max_proto_version(SSL_CTX *context, int version) {
    return (int)SSL_CTX_set_max_proto_version(context, version);
}

static inline long corkboard_SSL_CTX_set_mode(SSL_CTX *context, long mode) {
    return SSL_CTX_set_mode(context, mode);
}

static inline long corkboard_SSL_MODE_for_memory_bios(void) {
    // Our writes may be retried from another address (the output is a queue of chunks), a
    // write may report a partial count, and idle connections give back their record buffers.
    return SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_RELEASE_BUFFERS;
}

static inline uint64_t corkboard_SSL_OP_NO_RENEGOTIATION(void) { return SSL_OP_NO_RENEGOTIATION; }

static inline int corkboard_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

static inline int corkboard_BIO_set_mem_eof_return(BIO *bio, int value) {
    return (int)BIO_set_mem_eof_return(bio, value);
}

// A PEM key protected by a passphrase must fail with an error, never stop the server at a
// terminal prompt (OpenSSL's default password callback reads from the terminal).
static inline int corkboard_no_password(char *buffer, int size, int writing, void *context) {
    (void)buffer; (void)size; (void)writing; (void)context;
    return 0;
}

static inline void corkboard_SSL_CTX_refuse_passphrases(SSL_CTX *context) {
    SSL_CTX_set_default_passwd_cb(context, corkboard_no_password);
}

// ALPN on the server: we speak HTTP/1.1 only (WebSocket upgrades are HTTP/1.1 requests).
// A client that offers ALPN without http/1.1 gets the fatal no_application_protocol alert
// (RFC 7301 §3.2); a client that offers no ALPN at all never reaches this callback.
static inline int corkboard_select_http11(SSL *ssl, const unsigned char **out, unsigned char *outlen,
                                          const unsigned char *in, unsigned int inlen, void *arg) {
    (void)ssl; (void)arg;
    static const unsigned char ours[] = "\x08http/1.1";
    unsigned char *selected = NULL;
    unsigned char length = 0;
    if (SSL_select_next_proto(&selected, &length, ours, sizeof(ours) - 1, in, inlen) != OPENSSL_NPN_NEGOTIATED) {
        return SSL_TLSEXT_ERR_ALERT_FATAL;
    }
    *out = selected;
    *outlen = length;
    return SSL_TLSEXT_ERR_OK;
}

static inline void corkboard_SSL_CTX_select_http11(SSL_CTX *context) {
    SSL_CTX_set_alpn_select_cb(context, corkboard_select_http11, NULL);
}

#endif
