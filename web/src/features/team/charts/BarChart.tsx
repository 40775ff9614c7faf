import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export interface Bars {
  label: string;
  value: number;
}

/** A plain bar chart for the analytics screens; the numbers are always also in a table beside it. */
export default function SimpleBarChart({ data, title, format, integer = false }: { data: Bars[]; title: string; format: (value: number) => string; integer?: boolean }) {
  return (
    <figure className="chart-box" aria-label={title} style={{ margin: 0 }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e6e9f2" />
          <XAxis dataKey="label" tick={{ fontSize: 11 }} interval={0} angle={data.length > 3 ? -30 : 0} textAnchor={data.length > 3 ? 'end' : 'middle'} height={data.length > 3 ? 80 : 30} />
          <YAxis tick={{ fontSize: 12 }} width={64} allowDecimals={!integer} tickFormatter={(value: number) => format(value)} />
          <Tooltip formatter={(value) => format(Number(value))} />
          <Bar dataKey="value" name={title} fill="#3b5bdb" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
