// SPDX-License-Identifier: Apache-2.0
// The benchmark's baselines: bare Qpid Proton C++ clients exchanging the same messages with
// the same broker as the Dromedary series, with nothing on top.
#pragma once

#include <string>

#include "broker_bench_common.h"

namespace broker_bench {

/// Request-reply, `in_flight` requests outstanding from one handler; a responder on a
/// connection of its own echoes each request.
Series bareRequestReply(const Args& a, int in_flight, const std::string& label);

/// One-way, 10 unsettled sends at a time from one handler; a receiver counts arrivals.
Series bareOneWay(const Args& a, size_t size, const std::string& label);

/// `threads` producer threads, each handing its sends to the connection's work queue with up
/// to `window` of them waiting for the broker's accept (one-way) or the reply (request-reply),
/// as Proton's multithreaded_client examples hand work between user threads and the
/// container's: 10 threads with a window of 1 are 10 producers each waiting for its message;
/// 1 thread with a window of 10 is 10 in flight from one thread.
Series bareThreaded(const Args& a, size_t size, bool request_reply, int threads, int window,
                    const std::string& label);

}  // namespace broker_bench
