// SPDX-License-Identifier: Apache-2.0
#include "broker_bare_clients.h"

#include <fmt/format.h>

#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <proton/connection.hpp>
#include <proton/connection_options.hpp>
#include <proton/container.hpp>
#include <proton/delivery.hpp>
#include <proton/message.hpp>
#include <proton/message_id.hpp>
#include <proton/messaging_handler.hpp>
#include <proton/receiver_options.hpp>
#include <proton/sender.hpp>
#include <proton/tracker.hpp>
#include <proton/transport.hpp>
#include <proton/work_queue.hpp>
#include <thread>

namespace broker_bench {
namespace {

// The responder of the bare request-reply clients: on a connection of its own, echoes each
// request to its reply-to with the request's id as correlation id and a header set, through
// one sender per reply address.
class BareResponder {
 public:
  void open(proton::container& c, const std::string& url, const std::string& in,
            const std::string& container_id) {
    connection_ = c.connect(url, proton::connection_options().container_id(container_id));
    receiver_ = connection_.open_receiver(in, proton::receiver_options().credit_window(200));
  }
  bool owns(const proton::delivery& d) const { return d.receiver() == receiver_; }

  void echo(const proton::message& m) {
    proton::message reply;
    reply.body(m.body());
    reply.correlation_id(m.id());
    reply.to(m.reply_to());
    reply.properties().put("echoed", true);
    auto it = senders_.find(m.reply_to());
    if (it == senders_.end()) {
      it = senders_.emplace(m.reply_to(), connection_.open_sender(m.reply_to())).first;
    }
    pending_.push_back(reply);
    flush(it->second);
  }
  // Sends what waited for credit.
  void flush(proton::sender& s) {
    while (!pending_.empty() && s.credit() > 0) {
      s.send(pending_.front());
      pending_.erase(pending_.begin());
    }
  }

 private:
  proton::connection connection_;
  proton::receiver receiver_;
  std::map<std::string, proton::sender> senders_;
  std::vector<proton::message> pending_;
};

// A bare client's messages counted into batches after a warm-up of 200: the series it
// reports. The container stops after the last batch.
class BareSeries {
 public:
  static constexpr int64_t kWarmup = 200;

  // Counts one message; true when it ended the run.
  bool count(const Args& a, proton::container& c) {
    ++count_;
    if (count_ == kWarmup) {
      series.batches.begin();
      series.rssStart = rssMiB();
    }
    if (count_ > kWarmup && (count_ - kWarmup) % a.batchSize == 0) {
      series.batches.end(a.batchSize);
      if (static_cast<int>(series.batches.size()) == a.batches) {
        series.rssEnd = rssMiB();
        c.stop();
        return true;
      }
    }
    return false;
  }

  Series series;

 private:
  int64_t count_ = 0;
};

class BareClient : public proton::messaging_handler {
 public:
  BareClient(const Args& a, int in_flight) : args_(a), in_flight_(in_flight), body_(1024, 'x') {}

  void on_container_start(proton::container& c) override {
    std::string in = args_.prefix + "bench.bare.in";
    reply_ = args_.prefix + fmt::format("bench.bare.reply.{}", in_flight_);
    responder_.open(c, args_.url, in, fmt::format("bare-server-{}", in_flight_));
    proton::connection client = c.connect(
        args_.url,
        proton::connection_options().container_id(fmt::format("bare-client-{}", in_flight_)));
    sender_ = client.open_sender(in);
    replies_ = client.open_receiver(reply_, proton::receiver_options().credit_window(200));
  }

  void on_message(proton::delivery& d, proton::message& m) override {
    if (d.receiver() == replies_) {
      if (series_.count(args_, d.connection().container())) return;
      --outstanding_;
      send();
      return;
    }
    responder_.echo(m);
  }

  void on_sendable(proton::sender& s) override {
    if (s == sender_) {
      send();
    } else {
      responder_.flush(s);
    }
  }

  // The run ends with container().stop(), which aborts the connections: not an error here.
  void on_transport_error(proton::transport&) override {}
  void on_error(const proton::error_condition&) override {}

  BareSeries series_;

 private:
  void send() {
    while (outstanding_ < in_flight_ && sender_.credit() > 0) {
      proton::message m;
      m.id(++seq_);
      m.reply_to(reply_);
      m.body(body_);
      m.durable(true);
      sender_.send(m);
      ++outstanding_;
    }
  }

  const Args& args_;
  int in_flight_;
  std::string body_;
  std::string reply_;
  proton::sender sender_;
  proton::receiver replies_;
  BareResponder responder_;
  int outstanding_ = 0;
  uint64_t seq_ = 0;
};

// One-way, bare: a sender with `in_flight` unsettled durable messages at a time (each accepted
// by the broker frees a place, as the Dromedary producers wait for the broker's accept), and a
// receiver on a connection of its own granting 500 credits, as the consumer route does.
class BareOneWay : public proton::messaging_handler {
 public:
  BareOneWay(const Args& a, size_t size, int in_flight)
      : args_(a), in_flight_(in_flight), body_(size, 'x') {}

  void on_container_start(proton::container& c) override {
    std::string queue = args_.prefix + fmt::format("bench.bare.oneway.{}", body_.size());
    proton::connection in = c.connect(args_.url, proton::connection_options().container_id(
                                                     fmt::format("bare-in-{}", body_.size())));
    in.open_receiver(queue, proton::receiver_options().credit_window(500));
    proton::connection out = c.connect(args_.url, proton::connection_options().container_id(
                                                      fmt::format("bare-out-{}", body_.size())));
    sender_ = out.open_sender(queue);
  }

  void on_sendable(proton::sender&) override { send(); }
  void on_tracker_accept(proton::tracker&) override {
    --outstanding_;
    send();
  }

  void on_message(proton::delivery& d, proton::message&) override {
    series_.count(args_, d.connection().container());
  }

  void on_transport_error(proton::transport&) override {}
  void on_error(const proton::error_condition&) override {}

  BareSeries series_;

 private:
  void send() {
    int64_t total = BareSeries::kWarmup + int64_t{args_.batches} * args_.batchSize;
    while (outstanding_ < in_flight_ && sent_ < total && sender_.credit() > 0) {
      proton::message m;
      m.body(body_);
      m.durable(true);
      sender_.send(m);
      ++outstanding_;
      ++sent_;
    }
  }

  const Args& args_;
  int in_flight_;
  std::string body_;
  proton::sender sender_;
  int outstanding_ = 0;
  int64_t sent_ = 0;
};

// A producer thread's window of messages waiting for their accept or reply: a mutex and a
// condition variable, as in Proton's multithreaded_client examples. A window of 1 is a
// producer that waits for each message before the next.
class Window {
 public:
  explicit Window(int limit) : limit_(limit) {}
  // Takes a place, waiting while the window is full.
  void acquire() {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return outstanding_ < limit_; });
    ++outstanding_;
  }
  // A message's accept or reply has come: frees its place.
  void release() {
    std::lock_guard lock(mutex_);
    --outstanding_;
    cv_.notify_one();
  }
  // Waits until every message has had its answer.
  void drain() {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return outstanding_ == 0; });
  }

 private:
  const int limit_;
  std::mutex mutex_;
  std::condition_variable cv_;
  int outstanding_ = 0;
};

// Sends for producer threads: each hands its sends to the connection's work queue, as many at
// a time as its window allows, each outstanding until the broker's accept (one-way; a
// receiver on a connection of its own counts arrivals) or the reply (request-reply; a
// responder echoes). The window's address is the delivery tag (one-way) or the message id
// that the reply's correlation id carries back.
class BareThreaded : public proton::messaging_handler {
 public:
  BareThreaded(const Args& a, size_t size, bool request_reply)
      : args_(a), body_(size, 'x'), requestReply_(request_reply) {}

  void on_container_start(proton::container& c) override {
    std::string name = requestReply_ ? "rr" : fmt::format("oneway.{}", body_.size());
    std::string in = args_.prefix + "bench.bare.threaded." + name;
    if (requestReply_) {
      responder_.open(c, args_.url, in, "bare-threaded-server-" + name);
      reply_ = args_.prefix + "bench.bare.threaded.reply";
    } else {
      proton::connection receiving = c.connect(
          args_.url, proton::connection_options().container_id("bare-threaded-in-" + name));
      receiving.open_receiver(in, proton::receiver_options().credit_window(500));
    }
    proton::connection out =
        c.connect(args_.url, proton::connection_options().container_id("bare-threaded-" + name));
    sender_ = out.open_sender(in);
    if (requestReply_) {
      replies_ = out.open_receiver(reply_, proton::receiver_options().credit_window(200));
    }
  }

  void on_sender_open(proton::sender& s) override {
    if (s != sender_) return;
    std::lock_guard lock(mutex_);
    workQueue_ = &s.work_queue();
    ready_.notify_all();
  }
  void awaitReady() {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [&] { return workQueue_ != nullptr; });
  }

  // On a producer thread: sends one message once its window has a place.
  void send(Window& w) {
    w.acquire();
    workQueue_->add([this, &w] { start(&w); });
  }

  void on_sendable(proton::sender& s) override {
    if (s != sender_) {
      responder_.flush(s);
      return;
    }
    while (!blocked_.empty() && sender_.credit() > 0) {
      Window* w = blocked_.front();
      blocked_.pop_front();
      start(w);
    }
  }
  void on_tracker_accept(proton::tracker& t) override {
    if (requestReply_ || t.sender() != sender_) return;
    Window* w = nullptr;
    std::memcpy(&w, t.tag().data(), sizeof w);
    w->release();
  }
  void on_message(proton::delivery& d, proton::message& m) override {
    if (requestReply_ && d.receiver() == replies_) {
      auto* w = reinterpret_cast<Window*>(
          static_cast<uintptr_t>(proton::get<uint64_t>(m.correlation_id())));
      w->release();
    } else if (requestReply_) {
      responder_.echo(m);
    } else {
      arrived.fetch_add(1, std::memory_order_relaxed);
    }
  }

  // The run ends with container().stop(), which aborts the connections: not an error here.
  void on_transport_error(proton::transport&) override {}
  void on_error(const proton::error_condition&) override {}

  std::atomic<int64_t> arrived{0};  // one-way: messages the receiver has had

 private:
  // On the container's thread.
  void start(Window* w) {
    if (sender_.credit() <= 0) {
      blocked_.push_back(w);
      return;
    }
    proton::message m;
    m.body(body_);
    m.durable(true);
    if (requestReply_) {
      m.id(static_cast<uint64_t>(reinterpret_cast<uintptr_t>(w)));
      m.reply_to(reply_);
      sender_.send(m);
    } else {
      const auto* p = reinterpret_cast<const uint8_t*>(&w);
      sender_.send(m, proton::binary(p, p + sizeof w));
    }
  }

  const Args& args_;
  const std::string body_;
  const bool requestReply_;
  std::string reply_;
  proton::sender sender_;
  proton::receiver replies_;
  BareResponder responder_;
  std::deque<Window*> blocked_;  // waiting for credit
  std::mutex mutex_;
  std::condition_variable ready_;
  proton::work_queue* workQueue_ = nullptr;
};

}  // namespace

Series bareRequestReply(const Args& a, int in_flight, const std::string& label) {
  BareClient client(a, in_flight);
  proton::container(client).run();
  Series s = client.series_.series;
  s.name = label;
  return s;
}

Series bareOneWay(const Args& a, size_t size, const std::string& label) {
  BareOneWay client(a, size, 10);
  proton::container(client).run();
  Series s = client.series_.series;
  s.name = label;
  return s;
}

Series bareThreaded(const Args& a, size_t size, bool request_reply, int threads, int window,
                    const std::string& label) {
  BareThreaded client(a, size, request_reply);
  proton::container container(client);
  std::thread io([&] { container.run(); });
  client.awaitReady();
  Window warm(window);
  for (int i = 0; i < 200; ++i) client.send(warm);
  warm.drain();
  int64_t sent = 200;
  Series s{label, {}, rssMiB(), 0};
  s.batches.begin();
  for (int batch = 0; batch < a.batches; ++batch) {
    onProducerThreads(threads, a.batchSize, [&](auto take) {
      Window w(window);
      while (take()) client.send(w);
      w.drain();
    });
    sent += a.batchSize;
    if (!request_reply && !awaitArrivals(client.arrived, sent, label)) break;
    s.batches.end(a.batchSize);
  }
  s.rssEnd = rssMiB();
  container.stop();
  io.join();
  return s;
}

}  // namespace broker_bench
