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

/// 10 producer threads, each handing its sends to the connection's work queue and waiting
/// for the broker's accept (one-way) or the reply (request-reply), as Proton's
/// multithreaded_client example hands work between user threads and the container's.
Series bareThreaded(const Args& a, size_t size, bool request_reply, const std::string& label);

}  // namespace broker_bench
