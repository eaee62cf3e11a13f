// SPDX-License-Identifier: Apache-2.0
#pragma once

// probe:NAME — a component whose consumer does nothing by itself: a test feeds the route
// through the entry it keeps (entry()), as a broker's consumer would, and says what the
// consumer's health is (setProblem).

#include <memory>
#include <mutex>
#include <string>

#include <dromedary/dromedary.h>

namespace dromedary::testing {

class ProbeComponent final : public Component {
 public:
  std::string_view scheme() const override { return "probe"; }
  std::span<const OptionSpec> endpointOptions() const override { return {}; }
  Result<std::unique_ptr<Endpoint>> createEndpoint(const Uri& uri,
                                                   EndpointOptions options) override {
    return std::unique_ptr<Endpoint>(new ProbeEndpoint(*this, uri, std::move(options)));
  }

  /// The entry of the route last started from a probe endpoint (null before).
  Processor* entry() const noexcept { return entry_; }
  /// What the consumers report as their health problem from now on (empty: none).
  void setProblem(std::string problem) {
    std::lock_guard lock(mutex_);
    problem_ = std::move(problem);
  }

 private:
  class ProbeConsumer final : public Consumer {
   public:
    explicit ProbeConsumer(const ProbeComponent& component) : component_(component) {}
    Result<void> start() override { return {}; }
    void stop() noexcept override {}
    std::string healthProblem() const override {
      std::lock_guard lock(component_.mutex_);
      return component_.problem_;
    }

   private:
    const ProbeComponent& component_;
  };
  class ProbeEndpoint final : public Endpoint {
   public:
    ProbeEndpoint(ProbeComponent& component, Uri uri, EndpointOptions options)
        : Endpoint(component, std::move(uri), std::move(options)), probe_(component) {}
    Result<std::unique_ptr<Producer>> createProducer() override {
      return makeError(ErrorCode::InvalidUri, "probe: endpoints only consume");
    }
    Result<std::unique_ptr<Consumer>> createConsumer(Processor& processor) override {
      probe_.entry_ = &processor;
      return std::unique_ptr<Consumer>(new ProbeConsumer(probe_));
    }

   private:
    ProbeComponent& probe_;
  };

  Processor* entry_ = nullptr;
  mutable std::mutex mutex_;
  std::string problem_;
};

}  // namespace dromedary::testing
