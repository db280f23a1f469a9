/*
 * A stand-in for libnccl.so.2 in tests without a GPU (CollectivesTests): the nccl* symbols that
 * gpu-runtime binds, with nccl.h's C signatures, over "devices" whose memory is host memory
 * (SimulatedGpu). It exercises the real FFM downcalls (the 128-byte ncclUniqueId by value, size_t
 * counts, out-parameters) and the group semantics Collectives relies on, not NCCL itself:
 *   - ncclCommInitRank checks that the id arrived intact (by value) and joins the ranks of one id;
 *   - collectives are queued and run at the outermost ncclGroupEnd (or at once outside a group);
 *     a flush that lacks some rank of a communicator fails with ncclInvalidUsage, where the real
 *     library would wait for ever;
 *   - the sum is computed in float for ncclFloat32, ncclFloat16 and ncclBfloat16.
 * Test hooks (fake_nccl_*) reset the state, inject a failure and count calls.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct { char internal[128]; } ncclUniqueId;

enum { ncclSuccess = 0, ncclInternalError = 3, ncclInvalidArgument = 4, ncclInvalidUsage = 5 };
enum { ncclFloat16 = 6, ncclFloat32 = 7, ncclBfloat16 = 9, ncclSum = 0 };

typedef struct clique {
    char id[128];
    int nranks;
    struct clique* next;
} clique;

struct ncclComm {
    clique* clique;
    int rank;
    int device;
    int async_error;
};
typedef struct ncclComm* ncclComm_t;

typedef struct {
    const void* send;
    void* recv;
    size_t count;
    int type;
    ncclComm_t comm;
} pending;

#define MAX_PENDING 256
static pending queue[MAX_PENDING];
static int queued;
static int depth;
static clique* cliques;
static unsigned ids;
static int fail_next;
static int counts[6]; /* destroyed, aborted, group ends, all-reduces run, comms created, depth */

static const char MAGIC[] = "fake-nccl-id";

void fake_nccl_reset(void) {
    queued = 0;
    depth = 0;
    fail_next = 0;
    memset(counts, 0, sizeof counts);
}

void fake_nccl_fail_next(int status) { fail_next = status; }

void fake_nccl_counts(int* out) {
    counts[5] = depth;
    memcpy(out, counts, sizeof counts);
}

int ncclGetVersion(int* version) {
    if (!version) return ncclInvalidArgument;
    *version = 22907;
    return ncclSuccess;
}

const char* ncclGetErrorString(int result) {
    switch (result) {
        case ncclSuccess: return "no error";
        case ncclInternalError: return "internal error - please report this issue to the NCCL developers";
        case ncclInvalidArgument: return "invalid argument (run with NCCL_DEBUG=WARN for details)";
        case ncclInvalidUsage: return "invalid usage (run with NCCL_DEBUG=WARN for details)";
        default: return "unknown result code";
    }
}

int ncclGetUniqueId(ncclUniqueId* id) {
    if (!id) return ncclInvalidArgument;
    memset(id, 0, sizeof *id);
    memcpy(id->internal, MAGIC, sizeof MAGIC - 1);
    ids++;
    memcpy(id->internal + 16, &ids, sizeof ids);
    id->internal[127] = 0x5a;
    return ncclSuccess;
}

static ncclComm_t new_comm(clique* c, int rank, int device) {
    ncclComm_t comm = calloc(1, sizeof *comm);
    comm->clique = c;
    comm->rank = rank;
    comm->device = device;
    counts[4]++;
    return comm;
}

int ncclCommInitRank(ncclComm_t* comm, int nranks, ncclUniqueId id, int rank) {
    if (!comm || nranks < 1 || rank < 0 || rank >= nranks) return ncclInvalidArgument;
    /* the whole 128 bytes must have arrived by value */
    if (memcmp(id.internal, MAGIC, sizeof MAGIC - 1) != 0 || id.internal[127] != 0x5a) return ncclInvalidArgument;
    clique* c = cliques;
    while (c && memcmp(c->id, id.internal, sizeof c->id) != 0) c = c->next;
    if (!c) {
        c = calloc(1, sizeof *c);
        memcpy(c->id, id.internal, sizeof c->id);
        c->nranks = nranks;
        c->next = cliques;
        cliques = c;
    }
    if (c->nranks != nranks) return ncclInvalidArgument;
    *comm = new_comm(c, rank, -1);
    return ncclSuccess;
}

int ncclCommInitAll(ncclComm_t* comms, int ndev, const int* devlist) {
    if (!comms || ndev < 1) return ncclInvalidArgument;
    clique* c = calloc(1, sizeof *c);
    c->nranks = ndev;
    for (int i = 0; i < ndev; i++) comms[i] = new_comm(c, i, devlist ? devlist[i] : i);
    return ncclSuccess;
}

static float load(const void* p, size_t i, int type) {
    switch (type) {
        case ncclFloat32: return ((const float*)p)[i];
        case ncclFloat16: return (float)((const _Float16*)p)[i];
        default: {
            uint32_t bits = (uint32_t)((const uint16_t*)p)[i] << 16;
            float f;
            memcpy(&f, &bits, sizeof f);
            return f;
        }
    }
}

static void store(void* p, size_t i, int type, float v) {
    switch (type) {
        case ncclFloat32: ((float*)p)[i] = v; break;
        case ncclFloat16: ((_Float16*)p)[i] = (_Float16)v; break;
        default: {
            uint32_t bits;
            memcpy(&bits, &v, sizeof bits);
            bits += 0x7fff + ((bits >> 16) & 1); /* round to nearest even */
            ((uint16_t*)p)[i] = (uint16_t)(bits >> 16);
        }
    }
}

/* Runs every queued all-reduce; each communicator needs all its ranks queued, with one shape. */
static int flush(void) {
    int rc = ncclSuccess;
    int done[MAX_PENDING] = {0};
    for (int i = 0; i < queued && rc == ncclSuccess; i++) {
        if (done[i]) continue;
        clique* c = queue[i].comm->clique;
        int members[MAX_PENDING];
        int n = 0;
        for (int j = i; j < queued; j++) {
            if (done[j] || queue[j].comm->clique != c) continue;
            if (queue[j].count != queue[i].count || queue[j].type != queue[i].type) rc = ncclInvalidUsage;
            members[n++] = j;
        }
        if (n != c->nranks) rc = ncclInvalidUsage; /* NCCL would wait for the missing ranks */
        if (rc != ncclSuccess) break;
        size_t count = queue[i].count;
        float* sum = calloc(count ? count : 1, sizeof *sum);
        for (int m = 0; m < n; m++)
            for (size_t e = 0; e < count; e++) sum[e] += load(queue[members[m]].send, e, queue[i].type);
        for (int m = 0; m < n; m++) {
            for (size_t e = 0; e < count; e++) store(queue[members[m]].recv, e, queue[i].type, sum[e]);
            done[members[m]] = 1;
            counts[3]++;
        }
        free(sum);
    }
    queued = 0;
    return rc;
}

int ncclGroupStart(void) {
    depth++;
    return ncclSuccess;
}

int ncclGroupEnd(void) {
    if (depth == 0) return ncclInvalidUsage;
    counts[2]++;
    return --depth == 0 ? flush() : ncclSuccess;
}

int ncclAllReduce(const void* sendbuff, void* recvbuff, size_t count, int datatype, int op, ncclComm_t comm,
                  void* stream) {
    (void)stream;
    if (!comm || !sendbuff || !recvbuff || op != ncclSum) return ncclInvalidArgument;
    if (datatype != ncclFloat32 && datatype != ncclFloat16 && datatype != ncclBfloat16) return ncclInvalidArgument;
    if (fail_next) {
        int rc = fail_next;
        fail_next = 0;
        comm->async_error = rc;
        return rc;
    }
    if (queued == MAX_PENDING) return ncclInternalError;
    queue[queued++] = (pending){sendbuff, recvbuff, count, datatype, comm};
    return depth == 0 ? flush() : ncclSuccess;
}

int ncclCommGetAsyncError(ncclComm_t comm, int* asyncError) {
    if (!comm || !asyncError) return ncclInvalidArgument;
    *asyncError = comm->async_error;
    return ncclSuccess;
}

int ncclCommDestroy(ncclComm_t comm) {
    if (!comm) return ncclInvalidArgument;
    counts[0]++;
    free(comm);
    return ncclSuccess;
}

int ncclCommAbort(ncclComm_t comm) {
    if (!comm) return ncclInvalidArgument;
    counts[1]++;
    free(comm);
    return ncclSuccess;
}
