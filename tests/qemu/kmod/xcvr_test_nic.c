// SPDX-License-Identifier: GPL-2.0
/*
 * xcvr_test_nic: a test-only NIC for transceiver-exporter's real-kernel tests (never shipped).
 *
 * Registers `ports` Ethernet netdevs ("eth%d", parented to a platform device so that each has
 * the /sys/class/net/<if>/device link of a physical port) whose ethtool ops serve module memory
 * from one image written to /sys/kernel/debug/xcvr_test/image, laid out like an optoe file:
 * bytes 0-127 the lower page, upper page P at 128 * (P + 1). Bank 0 at address 0x50 only.
 *
 *   legacy=0 (default): get_module_eeprom_by_page, the MODULE_EEPROM_GET driver op.
 *   legacy=1: only get_module_info + get_module_eeprom, so the kernel's fallback
 *             (net/ethtool/eeprom.c eeprom_fallback) translates page requests to offsets.
 *
 * Opening the image file for writing empties the cage (reads fail with ENODEV) until bytes are
 * written; an empty write leaves the cage empty. by_page_calls and legacy_calls count the driver
 * ops the kernel called, so a test can tell which path served it.
 */
#include <linux/debugfs.h>
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/platform_device.h>

#define XCVR_HALF 128
#define XCVR_IMAGE_MAX (XCVR_HALF * 257) /* lower page + pages 00h-FFh */

static bool legacy;
module_param(legacy, bool, 0444);
MODULE_PARM_DESC(legacy, "serve only the legacy get_module_info/get_module_eeprom ops");

#define XCVR_MAX_PORTS 4
static int ports = 1;
module_param(ports, int, 0444);
MODULE_PARM_DESC(ports, "netdevs to register (1-4), all with the same module image");

static u8 image[XCVR_IMAGE_MAX];
static size_t image_len; /* 0: no module in the cage */
static DEFINE_MUTEX(image_lock);
static unsigned long by_page_calls, legacy_calls;

static struct platform_device *pdev;
static struct net_device *ndevs[XCVR_MAX_PORTS];
static struct dentry *dir;

static int xcvr_get_module_eeprom_by_page(struct net_device *dev,
					  const struct ethtool_module_eeprom *req,
					  struct netlink_ext_ack *extack)
{
	/* The kernel has validated offset/length/page (lower half: page 0 only). */
	size_t start = (size_t)req->page * XCVR_HALF + req->offset;
	int ret;

	if (req->bank != 0 || req->i2c_address != 0x50) {
		NL_SET_ERR_MSG(extack, "xcvr_test_nic: bank 0 at 0x50 only");
		return -EINVAL;
	}
	mutex_lock(&image_lock);
	by_page_calls++;
	if (image_len == 0) {
		ret = -ENODEV;
	} else if (start + req->length > image_len) {
		NL_SET_ERR_MSG(extack, "xcvr_test_nic: page not in the module image");
		ret = -EINVAL;
	} else {
		memcpy(req->data, image + start, req->length);
		ret = req->length;
	}
	mutex_unlock(&image_lock);
	return ret;
}

static int xcvr_get_module_info(struct net_device *dev, struct ethtool_modinfo *modinfo)
{
	int ret = 0;

	mutex_lock(&image_lock);
	legacy_calls++;
	if (image_len == 0) {
		ret = -ENODEV;
	} else if (image[0] == 0x03) { /* SFF-8472: A0h then A2h */
		modinfo->type = ETH_MODULE_SFF_8472;
		modinfo->eeprom_len = min_t(size_t, image_len, ETH_MODULE_SFF_8472_LEN);
	} else {
		modinfo->type = ETH_MODULE_SFF_8636;
		modinfo->eeprom_len = min_t(size_t, image_len, ETH_MODULE_SFF_8636_MAX_LEN);
	}
	mutex_unlock(&image_lock);
	return ret;
}

static int xcvr_get_module_eeprom(struct net_device *dev, struct ethtool_eeprom *ee, u8 *data)
{
	int ret = 0;

	mutex_lock(&image_lock);
	legacy_calls++;
	if (image_len == 0)
		ret = -ENODEV;
	else if ((size_t)ee->offset + ee->len > image_len)
		ret = -EINVAL;
	else
		memcpy(data, image + ee->offset, ee->len);
	mutex_unlock(&image_lock);
	return ret;
}

static const struct ethtool_ops by_page_ops = {
	.get_module_eeprom_by_page = xcvr_get_module_eeprom_by_page,
};

static const struct ethtool_ops legacy_ops = {
	.get_module_info = xcvr_get_module_info,
	.get_module_eeprom = xcvr_get_module_eeprom,
};

static netdev_tx_t xcvr_xmit(struct sk_buff *skb, struct net_device *dev)
{
	dev_kfree_skb(skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops xcvr_netdev_ops = {
	.ndo_start_xmit = xcvr_xmit,
};

static int image_open(struct inode *inode, struct file *file)
{
	mutex_lock(&image_lock);
	image_len = 0;
	mutex_unlock(&image_lock);
	return 0;
}

static ssize_t image_write(struct file *file, const char __user *buf, size_t len, loff_t *ppos)
{
	ssize_t n;

	mutex_lock(&image_lock);
	n = simple_write_to_buffer(image, sizeof(image), ppos, buf, len);
	if (n > 0 && *ppos > image_len)
		image_len = *ppos;
	mutex_unlock(&image_lock);
	return n;
}

static const struct file_operations image_fops = {
	.owner = THIS_MODULE,
	.open = image_open,
	.write = image_write,
	.llseek = no_llseek,
};

static void xcvr_remove_netdevs(void)
{
	int i;

	for (i = 0; i < XCVR_MAX_PORTS; i++) {
		if (!ndevs[i])
			continue;
		unregister_netdev(ndevs[i]);
		free_netdev(ndevs[i]);
		ndevs[i] = NULL;
	}
}

static int __init xcvr_test_nic_init(void)
{
	struct net_device *ndev;
	int err, i;

	if (ports < 1 || ports > XCVR_MAX_PORTS)
		return -EINVAL;
	pdev = platform_device_register_simple("xcvr_test_nic", PLATFORM_DEVID_NONE, NULL, 0);
	if (IS_ERR(pdev))
		return PTR_ERR(pdev);
	for (i = 0; i < ports; i++) {
		ndev = alloc_etherdev(0);
		if (!ndev) {
			err = -ENOMEM;
			goto fail;
		}
		ndev->netdev_ops = &xcvr_netdev_ops;
		ndev->ethtool_ops = legacy ? &legacy_ops : &by_page_ops;
		eth_hw_addr_random(ndev);
		SET_NETDEV_DEV(ndev, &pdev->dev);
		err = register_netdev(ndev);
		if (err) {
			free_netdev(ndev);
			goto fail;
		}
		ndevs[i] = ndev;
	}
	dir = debugfs_create_dir("xcvr_test", NULL);
	debugfs_create_file("image", 0200, dir, NULL, &image_fops);
	debugfs_create_ulong("by_page_calls", 0444, dir, &by_page_calls);
	debugfs_create_ulong("legacy_calls", 0444, dir, &legacy_calls);
	return 0;
fail:
	xcvr_remove_netdevs();
	platform_device_unregister(pdev);
	return err;
}

static void __exit xcvr_test_nic_exit(void)
{
	debugfs_remove_recursive(dir);
	xcvr_remove_netdevs();
	platform_device_unregister(pdev);
}

module_init(xcvr_test_nic_init);
module_exit(xcvr_test_nic_exit);
MODULE_DESCRIPTION("transceiver-exporter test NIC: module memory over ethtool netlink");
MODULE_LICENSE("GPL");
