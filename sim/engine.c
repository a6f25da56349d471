// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The engine: one thread per simulated function executes the hardware's
 * work. Register writes are plain stores into the register window, so
 * the thread finds new work by looking: it polls while there is work,
 * and backs off to sleeping when the function is idle.
 */
#include <linux/delay.h>
#include <linux/sched.h>

#include "sim.h"

/*
 * Idle polls ~10 us apart for about 20 ms after the last work, then ~1 ms
 * apart. A driver polling a register for 10 ms (the stock driver's budget
 * for a CQP command before the CCQ exists) is answered within the budget
 * even across the pauses of its bring-up, and an idle function costs a
 * wake-up a millisecond.
 */
#define SIM_FAST_POLLS	2000

/**
 * sim_engine_step - look for new work once and do it
 * @sdev: the simulated function
 *
 * Return: true if there was work.
 */
bool sim_engine_step(struct sim_dev *sdev)
{
	bool work = sim_regs_poll(sdev);

	return sim_fault_post_aes(sdev) || work;
}

static int sim_engine_thread(void *data)
{
	struct sim_dev *sdev = data;
	unsigned int idle = 0;

	complete(&sdev->engine_running);

	while (!kthread_should_stop()) {
		if (sim_engine_step(sdev)) {
			idle = 0;
			cond_resched();
			continue;
		}
		if (idle < SIM_FAST_POLLS) {
			idle++;
			usleep_range(10, 20);
		} else {
			usleep_range(1000, 2000);
		}
	}
	return 0;
}

/**
 * sim_engine_start - start the function's engine thread
 * @sdev: the simulated function
 *
 * Return: 0 or a negative errno.
 */
int sim_engine_start(struct sim_dev *sdev)
{
	struct task_struct *t;

	init_completion(&sdev->engine_running);
	t = kthread_run(sim_engine_thread, sdev, "irdma_sim%u", sdev->id);
	if (IS_ERR(t))
		return PTR_ERR(t);
	sdev->engine = t;
	/* A driver may poll for an answer within 10 ms of the plug. */
	wait_for_completion(&sdev->engine_running);
	return 0;
}

/**
 * sim_engine_stop - stop the function's engine thread
 * @sdev: the simulated function
 */
void sim_engine_stop(struct sim_dev *sdev)
{
	if (!sdev->engine)
		return;
	kthread_stop(sdev->engine);
	sdev->engine = NULL;
}
