// SPDX-License-Identifier: Apache-2.0
#pragma once

// The amqp component's Proton container: one thread runs every connection's events; other
// threads reach it through the container's work queue. It holds two connections, created on
// first use and kept for the context's life: one for every producer of the component, one
// for every consumer (each with its own container id, as brokers require).

#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include <proton/container.hpp>
#include <proton/work_queue.hpp>

#include <dromedary/amqp/amqp_component.h>

namespace dromedary {
class Context;
}

namespace dromedary::component::amqp {

class Connection;

class Client {
 public:
  Client(Context& context, std::string scheme, AmqpConfig config);
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  Connection& producerConnection();
  Connection& consumerConnection();

  proton::container& container() noexcept { return container_; }
  proton::work_queue& workQueue() noexcept { return work_queue_; }
  const AmqpConfig& config() const noexcept { return config_; }
  AmqpConnectionCounts counts() const;

 private:
  Connection& connection(std::unique_ptr<Connection>& slot, const char* role);

  Context& context_;
  std::string scheme_;
  AmqpConfig config_;
  proton::container container_;
  proton::work_queue work_queue_;
  std::thread thread_;
  mutable std::mutex mutex_;  // guards creating the connections (start-up only)
  std::unique_ptr<Connection> producer_;
  std::unique_ptr<Connection> consumer_;
};

}  // namespace dromedary::component::amqp
