// The only module that imports apexcharts: DashboardCharts loads it with React.lazy, so the library (hundreds of
// kilobytes) is a chunk of its own fetched once a chart is about to be drawn.
import { formatShortMoney, useTheme } from '@ledgerline/ui';
import type { ApexOptions } from 'apexcharts';
import ReactApexChart from 'react-apexcharts';
import { formatAmount } from '../format';

export interface ChartSeries {
  name: string;
  data: number[];
}

export interface ChartProps {
  type: 'bar' | 'area' | 'line';
  labels: readonly string[];
  series: readonly ChartSeries[];
  /** What the chart shows, for screen readers. */
  label: string;
  colors?: readonly string[];
  height?: number;
}

export default function Chart({ type, labels, series, label, colors, height = 260 }: ChartProps) {
  const { theme } = useTheme();
  const dark = theme === 'dark';
  const options: ApexOptions = {
    chart: { type, toolbar: { show: false }, zoom: { enabled: false }, background: 'transparent', fontFamily: 'inherit', animations: { enabled: false } },
    theme: { mode: dark ? 'dark' : 'light' },
    xaxis: { categories: [...labels] },
    yaxis: { labels: { formatter: (v: number) => formatShortMoney(v) } },
    tooltip: { theme: dark ? 'dark' : 'light', y: { formatter: (v: number) => formatAmount(v) } },
    dataLabels: { enabled: false },
    // Straight: a smoothed line between monthly points would draw values that never were.
    stroke: { width: type === 'bar' ? 0 : 2, curve: 'straight' },
    grid: { borderColor: dark ? '#1e293b' : '#e2e8f0' },
    legend: { position: 'top', horizontalAlign: 'left' },
    ...(colors ? { colors: [...colors] } : {}),
  };
  return (
    // Clipped to its card: after the window narrows, the chart is redrawn at the new width a moment later.
    <div role="img" aria-label={label} className="min-w-0 overflow-hidden">
      <ReactApexChart type={type} options={options} series={series.map((s) => ({ name: s.name, data: [...s.data] }))} height={height} />
    </div>
  );
}
